export { type IdErrorBody, idErrorBody } from './id-error-body.js';
export { idErrorResponse, jsonResponse } from './json-response.js';
export { type SuperjsonLike, strictBigints } from './strict-bigints.js';
