-- Tables of the @snowkey/prisma tests (test/prisma/models.prisma), the same SQL on PostgreSQL,
-- MySQL/MariaDB and SQLite: a snowflake key needs nothing dialect-specific.
-- Snowflake columns are BIGINT NOT NULL with no DEFAULT, so an INSERT that reaches the database
-- without an id fails rather than writing a placeholder. Per dialect, that takes:
--   MySQL/MariaDB: strict SQL mode (the default since MySQL 5.7 and MariaDB 10.2.4); without it
--     a missing NOT NULL value is written as 0.
--   SQLite: the NOT NULL itself, since a PRIMARY KEY that is not INTEGER PRIMARY KEY may hold NULL.
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
-- Not a snowflake table: its key is an INT the caller gives.
CREATE TABLE sk_shelf (
  id INT NOT NULL PRIMARY KEY,
  name VARCHAR(100) NOT NULL
);
CREATE TABLE sk_stock (
  id BIGINT NOT NULL PRIMARY KEY,
  shelf_id INT NOT NULL,
  label VARCHAR(100) NOT NULL,
  FOREIGN KEY (shelf_id) REFERENCES sk_shelf (id)
);
-- Not a snowflake table, and related to none.
CREATE TABLE sk_note (
  id INT NOT NULL PRIMARY KEY,
  text VARCHAR(100) NOT NULL UNIQUE
);
