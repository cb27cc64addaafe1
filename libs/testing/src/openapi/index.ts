// Contract testing against the official API Pix 2.9.0 OpenAPI document.
export { createResponseValidator, PROBLEM_TYPE } from './response-validator';
export type { ResponseUnderTest, ResponseValidator, ValidationResult } from './response-validator';
export { loadOfficialSpec, loadRawOfficialSpec, OFFICIAL_SPEC_PATH } from './official-spec';
export type { OpenApiDocument, OperationObject, ResponseObject, MediaTypeObject } from './official-spec';
export { PathMatcher } from './path-matcher';
export type { PathMatch, MatchedOperation, SpecServer } from './path-matcher';
export type { JsonSchema } from './openapi-schema';
