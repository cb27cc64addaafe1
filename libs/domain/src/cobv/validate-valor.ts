import type { Violation } from '../errors';
import { compareDates } from '../shared';
import type { Cents, DescontoCobV, ModalidadeValor } from './types';

const HUNDRED_PERCENT = 100_00;

/** Cross-field rules of `valor` that the contract lists for CobVOperacaoInvalida. */
export function validateValorRules(original: Cents, abatimento: ModalidadeValor | undefined, desconto: DescontoCobV | undefined, due: string): Violation[] {
  const v: Violation[] = [];
  if (abatimento && tooLarge(abatimento.modalidade === 1, abatimento.valorPerc, original))
    v.push({
      razao: 'O objeto cobv.valor.abatimento representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.',
      propriedade: 'cobv.valor.abatimento.valorPerc',
    });
  if (!desconto) return v;
  const prop = 'cobv.valor.desconto';
  const fixedDates = desconto.modalidade <= 2;
  if (fixedDates) {
    if (desconto.valorPerc !== undefined)
      v.push({ razao: `O objeto ${prop} apresenta modalidade no valor 1 ou 2, porém ${prop}.valorPerc encontra-se preenchido.`, propriedade: `${prop}.valorPerc` });
    if (!desconto.descontoDataFixa || desconto.descontoDataFixa.length === 0)
      v.push({ razao: `O objeto ${prop} apresenta modalidade no valor 1 ou 2, porém o array ${prop}.descontoDataFixa está vazio ou nulo.`, propriedade: `${prop}.descontoDataFixa` });
    desconto.descontoDataFixa?.forEach((d, i) => {
      if (tooLarge(desconto.modalidade === 1, d.valorPerc, original))
        v.push({
          razao: `O objeto ${prop} apresenta algum elemento de desconto que representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.`,
          propriedade: `${prop}.descontoDataFixa[${i}].valorPerc`,
        });
      if (compareDates(d.data, due) > 0)
        v.push({
          razao: `O objeto ${prop} apresenta algum elemento cuja data seja posterior à data de vencimento representada por calendario.dataDeVencimento.`,
          propriedade: `${prop}.descontoDataFixa[${i}].data`,
          valor: d.data,
        });
    });
    const dates = desconto.descontoDataFixa?.map((d) => d.data) ?? [];
    if (new Set(dates).size !== dates.length)
      v.push({ razao: `O objeto ${prop} não respeita o _schema_: datas repetidas em descontoDataFixa.`, propriedade: `${prop}.descontoDataFixa` });
    return v;
  }
  if (desconto.valorPerc === undefined)
    v.push({ razao: `O objeto ${prop} apresenta modalidade nos valores de 3 a 6, porém o elemento ${prop}.valorPerc não está preenchido.`, propriedade: `${prop}.valorPerc` });
  else if (tooLarge(desconto.modalidade <= 4, desconto.valorPerc, original))
    v.push({
      razao: `O objeto ${prop} apresenta algum elemento de desconto que representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.`,
      propriedade: `${prop}.valorPerc`,
    });
  if (desconto.descontoDataFixa !== undefined)
    v.push({ razao: `O objeto ${prop} apresenta modalidade nos valores de 3 a 6, porém o elemento ${prop}.descontoDataFixa encontra-se preenchido.`, propriedade: `${prop}.descontoDataFixa` });
  return v;
}

/** A fixed amount at or above the original, or a percentage at or above 100%. */
function tooLarge(isAmount: boolean, value: number, original: Cents): boolean {
  return isAmount ? value >= original : value >= HUNDRED_PERCENT;
}
