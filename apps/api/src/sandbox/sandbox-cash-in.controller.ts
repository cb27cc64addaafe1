import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Body, Controller, HttpCode, Inject, Logger, Post, Req } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { TXID_PATTERN, unknownMemberViolations, type PixRecebidoMessage } from '@pix/contracts';
import {
  buildDynamicBrCode,
  cobvDecider,
  DomainError,
  formatMoney,
  LOCAL_RECEBEDOR_ID,
  parseMoney,
  pixDecider,
  pixKeyType,
  type Recebedor,
} from '@pix/domain';
import { aggregateStream, type EventStore } from '@pix/event-store';
import type { CashInPublisher } from '@pix/messaging';
import { correlationIdOf, withCorrelationId } from '@pix/observability';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/auth-context';
import type { AppConfig } from '../config/config';
import { CASH_IN_PUBLISHER, CLOCK, CONFIG, EVENT_STORE, RECEIVER_DIRECTORY } from '../infrastructure/tokens';
import { KeyedMutex } from '../shared/keyed-mutex';
import type { Clock, ReceiverDirectory } from '../shared/ports';
import { cobvStream, pixStream } from '../shared/streams';
import { awaitSettlement } from './await-settlement';
import { checkPaymentDate, readChargeLikeABank, type PaidPayload } from './payer-bank';

const invalid = (razao: string, propriedade: string) => new DomainError('CobVOperacaoInvalida', razao, [{ razao, propriedade }]);
const SANDBOX_MEMBERS = ['txid', 'pixCopiaECola', 'data', 'chave', 'valor', 'infoPagador', 'endToEndId'];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** How long a payment over Kafka holds the queue for its settlement (consumers may still be joining). */
const SETTLEMENT_WAIT_MS = 10_000;
type CashInBase = Pick<PixRecebidoMessage, 'versao' | 'endToEndId' | 'horario' | 'infoPagador'>;

/**
 * Local-mode payer: POST /sandbox/cash-in pays a charge like a payer's bank (ADR 11): from its
 * BR Code ({pixCopiaECola}, or the local receiver's {txid}) it fetches the payload location, verifies
 * the JWS against the JWKS on the location's host and pays `valor.final` for `data` (default today);
 * or it records a Pix with no charge to one of the local receiver's keys. It publishes the cash-in
 * event exactly as a PSP's core would. Open without a token, and not mounted in production mode.
 */
@Public()
@Controller('sandbox')
export class SandboxCashInController {
  private readonly oneAtATime = new KeyedMutex();
  private readonly logger = new Logger('Sandbox');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CASH_IN_PUBLISHER) private readonly publisher: CashInPublisher,
    @Inject(RECEIVER_DIRECTORY) private readonly directory: ReceiverDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Post('cash-in')
  @HttpCode(202)
  async cashIn(@Body() body: Record<string, unknown> | undefined, @Req() request: FastifyRequest): Promise<PixRecebidoMessage> {
    const b = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
    const unknown = unknownMemberViolations(b, SANDBOX_MEMBERS, 'body');
    if (unknown.length > 0) throw new DomainError('CobVOperacaoInvalida', 'O corpo tem membros não previstos.', unknown);
    if (b.txid !== undefined && (typeof b.txid !== 'string' || !TXID_PATTERN.test(b.txid))) throw invalid('txid deve ter de 26 a 35 letras e dígitos.', 'txid');
    if (b.pixCopiaECola !== undefined && (typeof b.pixCopiaECola !== 'string' || b.pixCopiaECola.length > 512)) throw invalid('pixCopiaECola deve ser o texto do BR Code (até 512 caracteres).', 'pixCopiaECola');
    if (b.txid !== undefined && b.pixCopiaECola !== undefined) throw invalid('Informe txid ou pixCopiaECola, não ambos.', 'pixCopiaECola');
    // A charge is paid its payload's valor.final for the date: a valor beside it would be ignored.
    if (b.valor !== undefined && (b.txid !== undefined || b.pixCopiaECola !== undefined))
      throw invalid('valor vale para um Pix sem cobrança (chave e valor): uma cobrança (txid ou pixCopiaECola) é paga pelo valor.final do seu payload.', 'valor');
    // Likewise its key: a charge is paid to the key its payload names.
    if (b.chave !== undefined && (b.txid !== undefined || b.pixCopiaECola !== undefined))
      throw invalid('chave vale para um Pix sem cobrança (chave e valor): uma cobrança (txid ou pixCopiaECola) é paga à chave do seu payload.', 'chave');
    const data = checkPaymentDate(b.data);
    if (data !== undefined && b.txid === undefined && b.pixCopiaECola === undefined) throw invalid('data vale para o pagamento de uma cobrança (txid ou pixCopiaECola).', 'data');
    const now = this.clock.now();
    if (b.infoPagador !== undefined && (typeof b.infoPagador !== 'string' || b.infoPagador.length > 140)) throw invalid('infoPagador deve ser um texto de até 140 caracteres.', 'infoPagador');
    if (b.endToEndId !== undefined && (typeof b.endToEndId !== 'string' || !/^[a-zA-Z0-9]{32}$/.test(b.endToEndId))) throw invalid('endToEndId deve ter 32 letras e dígitos.', 'endToEndId');
    const base: CashInBase = {
      versao: 1,
      endToEndId: (b.endToEndId as string | undefined) ?? newEndToEndId(now),
      horario: now.toISOString(),
      ...(b.infoPagador !== undefined ? { infoPagador: b.infoPagador as string } : {}),
    };
    // Check, publish and settle one payment at a time (over Kafka, waiting for settlement): two
    // payers of one charge, or of one endToEndId, would both pass the checks before either is
    // recorded. A developer tool's throughput does not matter; one queue for all payments leaves
    // no pair of keys to order.
    return this.oneAtATime.run('sandbox-cash-in', () => this.pay(b, base, data, correlationIdOf(request)));
  }

  private async pay(b: Record<string, unknown>, base: CashInBase, data: string | undefined, correlationId: string): Promise<PixRecebidoMessage> {
    const local = await this.directory.recebedor(LOCAL_RECEBEDOR_ID);
    if (!local) throw new Error(`the local receiver ("${LOCAL_RECEBEDOR_ID}") is not registered: the sandbox has nobody to pay`);
    const charge =
      typeof b.txid === 'string' ? await this.payCharge(local, b.txid, data) : typeof b.pixCopiaECola === 'string' ? await this.readLikeABank(b.pixCopiaECola, data, 'pixCopiaECola') : undefined;
    const message: PixRecebidoMessage = charge ? { ...base, ...toCashIn(charge) } : { ...base, ...this.plainPix(local, b) };
    // One Pix per endToEndId (ADR 7): settlement keeps the first and ignores another, but the
    // notifier, which never stored a first without txid, would tell the receiver of a payment
    // never recorded. A payer's bank never reuses one; neither does this payer.
    if (b.endToEndId !== undefined && (await aggregateStream(this.store, pixStream(base.endToEndId), pixDecider)).state.exists)
      throw invalid('endToEndId já identifica outro Pix recebido: cada Pix tem o seu.', 'endToEndId');
    // The settlement it causes logs under this request's correlation id (ADR 17).
    await this.publisher.publish(message, { correlationId }).catch((error: unknown) => {
      // Answered 503 like any outage; the terminal says which dependency, since the body cannot.
      if (this.config.kafkaBrokers.length > 0)
        withCorrelationId(correlationId, () =>
          this.logger.warn(`payment not made: its cash-in was not published to Kafka at ${this.config.kafkaBrokers.join(',')} (${(error as Error).message}); is the broker up? GET /health says whether it answers`),
        );
      throw error;
    });
    if (this.config.kafkaBrokers.length > 0 && !(await awaitSettlement(this.store, message, SETTLEMENT_WAIT_MS)))
      this.logger.warn(`Pix ${message.endToEndId} published but not settled within ${SETTLEMENT_WAIT_MS} ms: the next sandbox payment's checks may not see it`);
    return message;
  }

  /** The local receiver's charge by txid: its own BR Code, read like any other. */
  private async payCharge(local: Recebedor, txid: string, data: string | undefined): Promise<PaidPayload> {
    const { state: charge } = await aggregateStream(this.store, cobvStream(local.id, txid), cobvDecider);
    if (!charge.exists) throw new DomainError('CobVNaoEncontrada', 'Cobrança com vencimento não encontrada para o txid informado.');
    if (charge.status !== 'ATIVA') throw invalid(`A cobrança está ${charge.status}: não pode ser paga.`, 'txid');
    const location = (charge as { loc?: { location?: string } }).loc?.location;
    if (!location) throw invalid('A cobrança não tem location (foi desvinculada): não há BR Code para pagar.', 'txid');
    const code = buildDynamicBrCode({ location, merchantName: charge.recebedor.nome, merchantCity: charge.recebedor.cidade });
    const paid = await this.readLikeABank(code, data, 'txid');
    if (paid.txid !== txid) throw invalid(`A location da cobrança serviu outro txid (${paid.txid}).`, 'txid');
    return paid;
  }

  private readLikeABank(pixCopiaECola: string, data: string | undefined, propriedade: string): Promise<PaidPayload> {
    return readChargeLikeABank(pixCopiaECola, data, propriedade, { locationHost: this.config.locationHost, fetchBase: this.config.payload.sandboxLocationBaseUrl ?? this.ownOrigin() });
  }

  /** This server itself (local mode serves the location host's paths over plain HTTP). */
  private ownOrigin(): string {
    const address = this.adapterHost.httpAdapter.getHttpServer().address() as AddressInfo;
    const host = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  private plainPix(local: Recebedor, b: Record<string, unknown>): Pick<PixRecebidoMessage, 'chave' | 'valor'> {
    if (typeof b.chave !== 'string' || pixKeyType(b.chave) === null) throw invalid('Informe txid, ou chave (uma chave Pix) e valor.', 'chave');
    if (!local.chaves.includes(b.chave)) throw invalid('A chave não pertence ao recebedor local.', 'chave');
    const cents = parseMoney(b.valor);
    if (cents === null || cents === 0) throw invalid('valor deve ser um valor como "10.00", diferente de zero.', 'valor');
    return { chave: b.chave, valor: formatMoney(cents) };
  }
}

/** The Pix of a charge read from its location: the payload's key and txid, `valor.final`, and the components applied. */
function toCashIn(paid: PaidPayload): Pick<PixRecebidoMessage, 'txid' | 'chave' | 'valor' | 'componentesValor'> {
  const names = ['original', 'multa', 'juros', 'abatimento', 'desconto'] as const;
  const parts = names.filter((k) => paid.valor[k] !== undefined && (k === 'original' || (parseMoney(paid.valor[k]) ?? 0) > 0));
  return { txid: paid.txid, chave: paid.chave, valor: formatMoney(paid.final), componentesValor: Object.fromEntries(parts.map((k) => [k, { valor: paid.valor[k] }])) };
}

/** E + ISPB (8) + yyyyMMddHHmm (UTC) + 11 letters and digits: 32 characters. */
function newEndToEndId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  const random = [...randomBytes(11)].map((x) => ALNUM[x % ALNUM.length]).join('');
  return `E99999999${stamp}${random}`;
}
