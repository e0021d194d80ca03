-- Tables of the @snowkey/prisma tests on SQLite. NOT NULL matters most here: SQLite lets a
-- PRIMARY KEY that is not INTEGER hold NULL.
-- Snowflake columns are NOT NULL with no DEFAULT, so an INSERT that reaches the database
-- without an id fails rather than writing a placeholder.
CREATE TABLE sk_item (
  id BIGINT NOT NULL PRIMARY KEY,
  name VARCHAR(100) NOT NULL UNIQUE,
  qty INT NOT NULL
);
CREATE TABLE sk_parent (
  id BIGINT NOT NULL PRIMARY KEY,
  name VARCHAR(100) NOT NULL
);
CREATE TABLE sk_child (
  id BIGINT NOT NULL PRIMARY KEY,
  parent_id BIGINT NOT NULL,
  label VARCHAR(100) NOT NULL,
  FOREIGN KEY (parent_id) REFERENCES sk_parent (id)
);
CREATE TABLE sk_profile (
  id BIGINT NOT NULL PRIMARY KEY,
  parent_id BIGINT NOT NULL UNIQUE,
  bio VARCHAR(100) NOT NULL,
  FOREIGN KEY (parent_id) REFERENCES sk_parent (id)
);
CREATE TABLE sk_toy (
  id BIGINT NOT NULL PRIMARY KEY,
  serial BIGINT NOT NULL UNIQUE,
  child_id BIGINT NOT NULL,
  label VARCHAR(100) NOT NULL,
  FOREIGN KEY (child_id) REFERENCES sk_child (id)
);
CREATE TABLE sk_shelf (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name VARCHAR(100) NOT NULL
);
CREATE TABLE sk_stock (
  id BIGINT NOT NULL PRIMARY KEY,
  shelf_id INT NOT NULL,
  label VARCHAR(100) NOT NULL,
  FOREIGN KEY (shelf_id) REFERENCES sk_shelf (id)
);
