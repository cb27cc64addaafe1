import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { parsePayloadLocationBody, type PayloadLocationWire } from '@pix/contracts';
import { DomainError, payloadLocation, type Recebedor } from '@pix/domain';
import { LocWriter } from './loc-writer';

/** POST /loc: a location for a due charge not yet created. `body` is the raw JSON. */
export class CreateLocCommand {
  constructor(
    readonly recebedor: Recebedor,
    readonly body: unknown,
  ) {}
}

const DETAIL = 'A presente requisição busca criar uma location sem respeitar o _schema_ estabelecido.';

@CommandHandler(CreateLocCommand)
export class CreateLocHandler implements ICommandHandler<CreateLocCommand, PayloadLocationWire> {
  constructor(private readonly writer: LocWriter) {}

  async execute({ recebedor, body }: CreateLocCommand): Promise<PayloadLocationWire> {
    const { value, violacoes } = parsePayloadLocationBody(body);
    if (!value) throw new DomainError('PayloadLocationOperacaoInvalida', DETAIL, violacoes);
    // Immediate charges (cob) are not served here: a location for one could never be used (ADR 12).
    if (value.tipoCob !== 'cobv')
      throw new DomainError('PayloadLocationOperacaoInvalida', 'Este PSP oferece apenas cobranças com vencimento: tipoCob deve ser cobv.', [
        { razao: 'O campo tipoCob não respeita o _schema_: apenas cobv é oferecido.', propriedade: 'loc.tipoCob', valor: value.tipoCob },
      ]);
    const loc = await this.writer.create(recebedor.id, value.tipoCob);
    return { id: loc.id, location: payloadLocation(loc.location), tipoCob: loc.tipoCob, criacao: loc.criacao };
  }
}
