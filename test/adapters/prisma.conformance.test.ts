import { runConformance } from '../conformance/suite.js';
import { prismaDriver } from './prisma-driver.js';

runConformance(prismaDriver);
