export { type HealthProbe, healthResponse, healthStatus } from './health-response.js';
export { type IdErrorBody, idErrorBody } from './id-error-body.js';
export { parseJsonId, parseJsonIds } from './json-ids.js';
export { idErrorResponse, jsonResponse } from './json-response.js';
export { type SuperjsonLike, strictBigints } from './strict-bigints.js';
