import { exampleSuite } from '../../merge/test/support/example-suite.js';
import { knexPlayer } from '../src/index.js';

exampleSuite(knexPlayer);
