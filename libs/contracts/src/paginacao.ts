/** The official `Paginacao` of a list answer; `quantidadeDePaginas` is at least 1 (schema minimum). */
export function paginacao(paginaAtual: number, itensPorPagina: number, quantidadeTotalDeItens: number) {
  return { paginaAtual, itensPorPagina, quantidadeDePaginas: Math.max(1, Math.ceil(quantidadeTotalDeItens / itensPorPagina)), quantidadeTotalDeItens };
}
