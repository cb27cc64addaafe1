import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ProblemError } from '@pix/contracts';
import type { Recebedor } from '@pix/domain';
import { toCobVCompleta, type CobVRow } from '@pix/read-models';
import { CurrentRecebedor, Scopes } from '../auth/auth-context';
import { GetCobVQuery } from '../cobv/get-cobv/get-cobv.query';

/**
 * GET /cobv/{txid}/qrcode (ours, not the contract's; Efí's shape): the charge's BR Code and a PNG
 * of it as a data URL, for a receiver that prints or shows the QR code. Same access and tenant
 * rule as GET /cobv/{txid}. Only an ATIVA charge has one.
 */
@Controller('cobv')
export class CobVQrCodeController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':txid/qrcode')
  @Scopes('cobv.read')
  async qrcode(@CurrentRecebedor() recebedor: Recebedor, @Param('txid') txid: string): Promise<{ qrcode: string; imagemQrcode: string }> {
    const { pixCopiaECola, status } = toCobVCompleta(await this.queries.execute<GetCobVQuery, CobVRow>(new GetCobVQuery(recebedor, txid)));
    // A QR code is for paying: a paid or removed charge's payload location answers 404, so a
    // printed code would only send payers to that (found by an operator audit).
    if (status !== 'ATIVA')
      throw new ProblemError('CobVOperacaoInvalida', `A cobrança está ${status}: não há QR Code a pagar.`, [
        { razao: `Só uma cobrança ATIVA tem QR Code; esta está ${status}.`, propriedade: 'cobv.status' },
      ]);
    // A charge whose location was unlinked (DELETE /loc/{id}/txid) has no BR Code (ADR 12).
    if (typeof pixCopiaECola !== 'string')
      throw new ProblemError('CobVOperacaoInvalida', 'A cobrança não tem location vinculada, e sem location não há QR Code.', [
        { razao: 'A location da cobrança foi desvinculada (DELETE /loc/{id}/txid): não há QR Code a gerar.', propriedade: 'cobv.loc' },
      ]);
    const code = pixCopiaECola;
    // Level M (15% recovery) with the standard 4-module quiet zone: what bank apps read reliably.
    // Loaded on first use: the encoder is memory every process would carry for a rarely used route.
    const { toDataURL } = await import('qrcode');
    const imagemQrcode = await toDataURL(code, { errorCorrectionLevel: 'M', margin: 4, scale: 6, type: 'image/png' });
    return { qrcode: code, imagemQrcode };
  }
}
