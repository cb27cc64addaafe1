import type { Violation } from '../errors';
import { compareDates, isValidCnpj, isValidCpf, isValidIsoDate, parseMoney, pixKeyType } from '../shared';
import type { CobVContent, CobVInput, DescontoCobV, LocationReferenciada, ModalidadeValor, ModalidadeValorInput, Recebedor } from './types';
import { validateValorRules } from './validate-valor';
import { unpayableValor } from './payable-valor';

export interface ContentContext {
  /** Civil date (America/Sao_Paulo) the charge was created: the due date may not be earlier. */
  creationDate: string;
  /** The first date the charge can be paid: the earliest civil date anywhere in Brazil at the request. */
  today: string;
  recebedor: Recebedor;
  /** The only `loc.id` a request may name: the charge's own, or on creation the location the shell claimed for it. */
  currentLocationId?: number;
  /** What another `loc.id` names, as the shell found it: the reason it is refused. */
  locationReferenciada?: LocationReferenciada;
}

const schema = (prop: string, value?: unknown): Violation => ({
  razao: `O campo ${prop} não respeita o _schema_.`,
  propriedade: prop,
  ...(value === undefined ? {} : { valor: String(value) }),
});

/**
 * Turns a complete (shape-checked) request into charge content, or lists every semantic
 * violation the contract names for PUT|PATCH /cobv/{txid}.
 */
export function toCobVContent(input: CobVInput, ctx: ContentContext): { content?: CobVContent; violacoes: Violation[] } {
  const v: Violation[] = [];
  const due = input.calendario?.dataDeVencimento;
  if (!due || !isValidIsoDate(due)) v.push(schema('cobv.calendario.dataDeVencimento', due));
  else if (compareDates(due, ctx.creationDate) < 0)
    v.push({ razao: 'O campo cobv.calendario.dataDeVencimento é anterior à data de criação da cobrança.', propriedade: 'cobv.calendario.dataDeVencimento', valor: due });
  const validade = input.calendario?.validadeAposVencimento ?? 30;
  if (!Number.isInteger(validade) || validade < 0)
    v.push({ razao: 'O campo cobv.calendario.validadeAposVencimento é menor do que zero.', propriedade: 'cobv.calendario.validadeAposVencimento', valor: String(validade) });

  const devedor = input.devedor;
  if (!devedor || typeof devedor.nome !== 'string' || devedor.nome.length === 0) v.push({ razao: 'O objeto cobv.devedor não respeita o _schema_.', propriedade: 'cobv.devedor' });
  else if ((devedor.cpf === undefined) === (devedor.cnpj === undefined))
    v.push({ razao: 'O objeto cobv.devedor não respeita o _schema_: informe cpf ou cnpj, um e apenas um.', propriedade: 'cobv.devedor' });
  else if (devedor.cpf !== undefined && !isValidCpf(devedor.cpf))
    v.push({ razao: 'O objeto cobv.devedor não respeita o _schema_: CPF inválido.', propriedade: 'cobv.devedor.cpf', valor: devedor.cpf });
  else if (devedor.cnpj !== undefined && !isValidCnpj(devedor.cnpj))
    v.push({ razao: 'O objeto cobv.devedor não respeita o _schema_: CNPJ inválido.', propriedade: 'cobv.devedor.cnpj', valor: devedor.cnpj });

  const chave = input.chave;
  if (typeof chave !== 'string' || pixKeyType(chave) === null) v.push(schema('cobv.chave', chave));
  else if (!ctx.recebedor.chaves.includes(chave))
    v.push({ razao: 'O campo cobv.chave corresponde a uma conta que não pertence a este usuário recebedor.', propriedade: 'cobv.chave', valor: chave });

  if (input.loc?.id !== undefined && input.loc.id !== ctx.currentLocationId)
    v.push({ razao: locIdRazao(ctx.locationReferenciada), propriedade: 'cobv.loc.id', valor: String(input.loc.id) });

  const original = parseMoney(input.valor?.original);
  if (original === null) v.push(schema('cobv.valor.original', input.valor?.original));
  else if (original === 0) v.push({ razao: 'O campo cobv.valor.original apresenta o valor zero.', propriedade: 'cobv.valor.original', valor: input.valor?.original });

  const multa = modalidadeValor(input.valor?.multa, 'multa', 2, v);
  const juros = modalidadeValor(input.valor?.juros, 'juros', 8, v);
  const abatimento = modalidadeValor(input.valor?.abatimento, 'abatimento', 2, v);
  const desconto = parseDesconto(input.valor?.desconto, v);
  if (original !== null && original > 0 && due && isValidIsoDate(due)) v.push(...validateValorRules(original, abatimento, desconto, due));
  if (v.length > 0) return { violacoes: v };

  const content: CobVContent = {
    calendario: { dataDeVencimento: due!, validadeAposVencimento: validade },
    devedor: compact(devedor!) as CobVContent['devedor'],
    valor: compact({ original: original!, multa, juros, abatimento, desconto }) as CobVContent['valor'],
    chave: chave!,
    ...(input.solicitacaoPagador !== undefined ? { solicitacaoPagador: input.solicitacaoPagador } : {}),
    ...(input.infoAdicionais !== undefined ? { infoAdicionais: input.infoAdicionais.map((i) => ({ nome: i.nome, valor: i.valor })) } : {}),
  };
  const overflow = unpayableValor(content.calendario, content.valor, ctx.today);
  return overflow.length > 0 ? { violacoes: overflow } : { content, violacoes: [] };
}

/** Why a `loc.id` other than the one the request may use is refused: it may well exist (ADR 12). */
function locIdRazao(found: LocationReferenciada | undefined): string {
  if (!found) return 'O location referenciado por cobv.loc.id inexiste.';
  if (found.txid !== undefined) return 'O location referenciado por cobv.loc.id já está sendo utilizado por outra cobrança.';
  return 'O location referenciado por cobv.loc.id existe, mas não está disponível para esta cobrança.';
}

function modalidadeValor(input: ModalidadeValorInput | undefined, name: string, max: number, v: Violation[]): ModalidadeValor | undefined {
  if (input === undefined) return undefined;
  const valorPerc = parseMoney(input.valorPerc);
  if (!Number.isInteger(input.modalidade) || input.modalidade < 1 || input.modalidade > max || valorPerc === null) {
    v.push({ razao: `O objeto cobv.valor.${name} não respeita o _schema_.`, propriedade: `cobv.valor.${name}` });
    return undefined;
  }
  return { modalidade: input.modalidade, valorPerc };
}

function parseDesconto(input: NonNullable<CobVInput['valor']>['desconto'], v: Violation[]): DescontoCobV | undefined {
  if (input === undefined) return undefined;
  const prop = 'cobv.valor.desconto';
  if (!Number.isInteger(input.modalidade) || input.modalidade < 1 || input.modalidade > 6) {
    v.push({ razao: `O objeto ${prop} não respeita o _schema_.`, propriedade: `${prop}.modalidade`, valor: String(input.modalidade) });
    return undefined;
  }
  const valorPerc = input.valorPerc === undefined ? undefined : parseMoney(input.valorPerc);
  const datas = input.descontoDataFixa?.map((d) => ({ data: d.data, valorPerc: parseMoney(d.valorPerc) }));
  if (valorPerc === null || datas?.some((d) => d.valorPerc === null || !isValidIsoDate(d.data))) {
    v.push({ razao: `O objeto ${prop} não respeita o _schema_.`, propriedade: prop });
    return undefined;
  }
  return compact({ modalidade: input.modalidade, valorPerc, descontoDataFixa: datas as DescontoCobV['descontoDataFixa'] }) as DescontoCobV;
}

/** A copy of `o`'s own members without the undefined ones (a loop: on every PUT, no entry arrays). */
function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(o)) {
    const value = (o as Record<string, unknown>)[key];
    if (value === undefined) continue;
    // As Object.fromEntries would: a member named __proto__ is a member, not the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out as T;
}
