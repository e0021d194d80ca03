import { runConformance } from '../conformance/suite.js';
import { typeormDriver } from './typeorm-driver.js';

runConformance(typeormDriver);
