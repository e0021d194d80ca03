import { runConformance } from '../conformance/suite.js';
import { knexDriver } from './knex-driver.js';

runConformance(knexDriver);
