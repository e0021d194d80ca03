import { exampleSuite } from '../../merge/test/support/example-suite.js';
import { drizzlePlayer } from '../src/index.js';

exampleSuite(drizzlePlayer);
