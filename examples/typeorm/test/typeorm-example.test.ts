import { exampleSuite } from '../../merge/test/support/example-suite.js';
import { typeormPlayer } from '../src/index.js';

exampleSuite(typeormPlayer);
