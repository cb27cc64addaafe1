/**
 * What can go wrong when administering receivers, keys and clients. These never reach the API
 * Pix (the operator's command and local start-up see them), so they have no official problem type.
 */
export type AccessErrorKind =
  | 'RecebedorInvalido'
  | 'RecebedorJaCadastrado'
  | 'RecebedorNaoEncontrado'
  | 'ChaveInvalida'
  | 'ChaveJaVinculada'
  | 'ChaveNaoVinculada'
  | 'ClienteInvalido'
  | 'ClienteJaCadastrado'
  | 'ClienteNaoEncontrado'
  | 'ClienteDesativado';
