import { runConformance } from '../conformance/suite.js';
import { drizzleDriver } from './drizzle-driver.js';

runConformance(drizzleDriver);
