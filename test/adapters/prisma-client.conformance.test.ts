import { runConformance } from '../conformance/suite.js';
import { prismaClientDriver } from './prisma-driver.js';

runConformance(prismaClientDriver);
