// The free variables of @snowkey/sequelize's TSDoc examples and README fragments, declared with
// their types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the
// names it uses from here; see CONTRIBUTING.md, "Docs are code".
import { Model, type Sequelize } from 'sequelize';

export { Snowflake } from '@snowkey/core';
export { DataTypes, Sequelize } from 'sequelize';
export * from './src/index.js';

/** The application's Sequelize instance. */
export declare const sequelize: Sequelize;
/** Model classes of the application, initialised in the examples. */
export class Player extends Model {}
export class Item extends Model {}
export class Member extends Model {}
