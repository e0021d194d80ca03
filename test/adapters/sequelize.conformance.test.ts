import { runConformance } from '../conformance/suite.js';
import { sequelizeDriver } from './sequelize-driver.js';

runConformance(sequelizeDriver);
