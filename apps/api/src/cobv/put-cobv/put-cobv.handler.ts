import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CobVSolicitadaDto, validateBody } from '@pix/contracts';
import { DomainError, type CobVInput } from '@pix/domain';
import type { CobVRow } from '@pix/read-models';
import type { Pool } from 'pg';
import { pendenciaLote } from '../../lotecobv/pendencia-lote';
import { LOCATION_IDS, READ_DB } from '../../infrastructure/tokens';
import type { LocationIds } from '../../shared/ports';
import { CobVWriter, TXID_PATTERN } from '../cobv-writer';
import { PutCobVCommand } from './put-cobv.command';

const SCHEMA_DETAIL = 'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.';

@CommandHandler(PutCobVCommand)
export class PutCobVHandler implements ICommandHandler<PutCobVCommand, CobVRow> {
  constructor(
    private readonly writer: CobVWriter,
    @Inject(LOCATION_IDS) private readonly locations: LocationIds,
    @Inject(READ_DB) private readonly db: Pool,
  ) {}

  async execute({ recebedor, txid, body }: PutCobVCommand): Promise<CobVRow> {
    if (!TXID_PATTERN.test(txid))
      throw new DomainError('CobVOperacaoInvalida', SCHEMA_DETAIL, [{ razao: 'O campo txid não respeita o _schema_.', propriedade: 'txid', valor: txid.slice(0, 100) }]);
    const { value, violacoes } = validateBody(CobVSolicitadaDto, body);
    if (!value) throw new DomainError('CobVOperacaoInvalida', SCHEMA_DETAIL, violacoes);
    const { state } = await this.writer.execute(recebedor.id, txid, async (current, now) => ({
      type: 'CriarOuAlterarCobV',
      txid,
      input: value as CobVInput,
      now,
      recebedor,
      // A location id is spent only when the charge is new.
      novaLocation: current.exists ? { id: current.loc.id, location: current.loc.location } : await this.locations.next(),
      pendenteEmLote: await pendenciaLote(this.db, recebedor.id, txid),
    }));
    return state;
  }
}
