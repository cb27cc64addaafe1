/** Where POST /oauth/token is served (outside the API base path, like the contract's tokenUrl). */
export const TOKEN_PATH = '/oauth/token';
