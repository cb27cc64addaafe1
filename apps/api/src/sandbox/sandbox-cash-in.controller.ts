import { randomBytes } from 'node:crypto';
import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { TXID_PATTERN, unknownMemberViolations, type PixRecebidoMessage } from '@pix/contracts';
import {
  amountDue,
  businessDateOf,
  cobvDecider,
  cobvStreamId,
  DomainError,
  formatMoney,
  LOCAL_RECEBEDOR_ID,
  parseMoney,
  pixKeyType,
  type CobVEvent,
  type DueChargeValue,
  type Recebedor,
} from '@pix/domain';
import type { EventStore } from '@pix/event-store';
import type { CashInPublisher } from '@pix/messaging';
import { Public } from '../auth/auth-context';
import { CASH_IN_PUBLISHER, CLOCK, EVENT_STORE, RECEIVER_DIRECTORY } from '../infrastructure/tokens';
import type { Clock, ReceiverDirectory } from '../shared/ports';

const invalid = (razao: string, propriedade: string) => new DomainError('CobVOperacaoInvalida', razao, [{ razao, propriedade }]);
const SANDBOX_MEMBERS = ['txid', 'chave', 'valor', 'infoPagador', 'endToEndId'];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Local-mode payer: POST /sandbox/cash-in pays a charge of the local receiver for what it costs
 * today (or records a Pix with no charge to one of its keys), publishing the cash-in event exactly
 * as a PSP's core would. Open without a token, and not mounted in production mode.
 */
@Public()
@Controller('sandbox')
export class SandboxCashInController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CASH_IN_PUBLISHER) private readonly publisher: CashInPublisher,
    @Inject(RECEIVER_DIRECTORY) private readonly directory: ReceiverDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('cash-in')
  @HttpCode(202)
  async cashIn(@Body() body: Record<string, unknown> | undefined): Promise<PixRecebidoMessage> {
    const b = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const unknown = unknownMemberViolations(b, SANDBOX_MEMBERS, 'body');
    if (unknown.length > 0) throw new DomainError('CobVOperacaoInvalida', 'O corpo tem membros não previstos.', unknown);
    if (b.txid !== undefined && (typeof b.txid !== 'string' || !TXID_PATTERN.test(b.txid))) throw invalid('txid deve ter de 26 a 35 letras e dígitos.', 'txid');
    const now = this.clock.now();
    if (b.infoPagador !== undefined && (typeof b.infoPagador !== 'string' || b.infoPagador.length > 140)) throw invalid('infoPagador deve ser um texto de até 140 caracteres.', 'infoPagador');
    if (b.endToEndId !== undefined && (typeof b.endToEndId !== 'string' || !/^[a-zA-Z0-9]{32}$/.test(b.endToEndId))) throw invalid('endToEndId deve ter 32 letras e dígitos.', 'endToEndId');
    const base = {
      versao: 1 as const,
      endToEndId: (b.endToEndId as string | undefined) ?? newEndToEndId(now),
      horario: now.toISOString(),
      ...(b.infoPagador !== undefined ? { infoPagador: b.infoPagador as string } : {}),
    };
    const local = await this.directory.recebedor(LOCAL_RECEBEDOR_ID);
    if (!local) throw new Error(`the local receiver ("${LOCAL_RECEBEDOR_ID}") is not registered: the sandbox has nobody to pay`);
    const message: PixRecebidoMessage = typeof b.txid === 'string' ? { ...base, ...(await this.payCharge(local, b.txid, now)) } : { ...base, ...this.plainPix(local, b) };
    await this.publisher.publish(message);
    return message;
  }

  private async payCharge(local: Recebedor, txid: string, now: Date): Promise<Pick<PixRecebidoMessage, 'txid' | 'chave' | 'valor' | 'componentesValor'>> {
    const events = await this.store.readStream(cobvStreamId(local.id, txid));
    const charge = events.reduce((s, e) => cobvDecider.evolve(s, { type: e.type, data: e.data } as CobVEvent), cobvDecider.initialState);
    if (!charge.exists) throw new DomainError('CobVNaoEncontrada', 'Cobrança com vencimento não encontrada para o txid informado.');
    if (charge.status !== 'ATIVA') throw invalid(`A cobrança está ${charge.status}: não pode ser paga.`, 'txid');
    const due = amountDue({
      valor: charge.cobranca.valor as DueChargeValue,
      dataDeVencimento: charge.cobranca.calendario.dataDeVencimento,
      validadeAposVencimento: charge.cobranca.calendario.validadeAposVencimento,
      paymentDate: businessDateOf(now),
    });
    if (!due) throw invalid('A cobrança não pode mais ser paga: passou a validade após o vencimento.', 'txid');
    const parts = Object.entries({ original: due.original, multa: due.multa, juros: due.juros, abatimento: due.abatimento, desconto: due.desconto }).filter(([k, v]) => k === 'original' || v > 0);
    return { txid, chave: charge.cobranca.chave, valor: formatMoney(due.final), componentesValor: Object.fromEntries(parts.map(([k, v]) => [k, { valor: formatMoney(v) }])) };
  }

  private plainPix(local: Recebedor, b: Record<string, unknown>): Pick<PixRecebidoMessage, 'chave' | 'valor'> {
    if (typeof b.chave !== 'string' || pixKeyType(b.chave) === null) throw invalid('Informe txid, ou chave (uma chave Pix) e valor.', 'chave');
    if (!local.chaves.includes(b.chave)) throw invalid('A chave não pertence ao recebedor local.', 'chave');
    const cents = parseMoney(b.valor);
    if (cents === null || cents === 0) throw invalid('valor deve ser um valor como "10.00", diferente de zero.', 'valor');
    return { chave: b.chave, valor: formatMoney(cents) };
  }
}

/** E + ISPB (8) + yyyyMMddHHmm (UTC) + 11 letters and digits: 32 characters. */
function newEndToEndId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  const random = [...randomBytes(11)].map((x) => ALNUM[x % ALNUM.length]).join('');
  return `E99999999${stamp}${random}`;
}
