import { runConformance } from '../conformance/suite.js';
import { kyselyDriver } from './kysely-driver.js';

runConformance(kyselyDriver);
