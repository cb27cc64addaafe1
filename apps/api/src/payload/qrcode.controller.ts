import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Recebedor } from '@pix/domain';
import { toCobVCompleta, type CobVRow } from '@pix/read-models';
import { CurrentRecebedor, Scopes } from '../auth/auth-context';
import { GetCobVQuery } from '../cobv/get-cobv/get-cobv.query';

/**
 * GET /cobv/{txid}/qrcode (ours, not the contract's; Efí's shape): the charge's BR Code and a PNG
 * of it as a data URL, for a receiver that prints or shows the QR code. Same access and tenant
 * rule as GET /cobv/{txid}.
 */
@Controller('cobv')
export class CobVQrCodeController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':txid/qrcode')
  @Scopes('cobv.read')
  async qrcode(@CurrentRecebedor() recebedor: Recebedor, @Param('txid') txid: string): Promise<{ qrcode: string; imagemQrcode: string }> {
    const { pixCopiaECola } = toCobVCompleta(await this.queries.execute<GetCobVQuery, CobVRow>(new GetCobVQuery(recebedor, txid)));
    const code = pixCopiaECola as string;
    // Level M (15% recovery) with the standard 4-module quiet zone: what bank apps read reliably.
    // Loaded on first use: the encoder is memory every process would carry for a rarely used route.
    const { toDataURL } = await import('qrcode');
    const imagemQrcode = await toDataURL(code, { errorCorrectionLevel: 'M', margin: 4, scale: 6, type: 'image/png' });
    return { qrcode: code, imagemQrcode };
  }
}
