import { exampleSuite } from '../../merge/test/support/example-suite.js';
import { prismaPlayer } from '../src/index.js';

exampleSuite(prismaPlayer);
