import { exampleSuite } from '../../merge/test/support/example-suite.js';
import { kyselyPlayer } from '../src/index.js';

exampleSuite(kyselyPlayer);
