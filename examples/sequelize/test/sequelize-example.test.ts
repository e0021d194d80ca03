import { exampleSuite } from '../../merge/test/support/example-suite.js';
import { sequelizePlayer } from '../src/index.js';

exampleSuite(sequelizePlayer);
