// Request bodies of `PUT /cobv/{txid}` (schema CobVSolicitada) and `PATCH /cobv/{txid}`
// (schema CobVRevisada), as class-validator DTOs. They check SHAPE only; run them through
// `validateBody`, which also rejects unknown properties at every level.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { HasExactlyOneDocument, OptionalField } from '../validation/dto-decorators';
import {
  CalendarioRevisadoDto,
  CalendarioSolicitadoDto,
  DevedorDto,
  InfoAdicionalDto,
  LocDto,
} from './cobv-parts.dto';
import { CobVValorRevisadoDto, CobVValorSolicitadoDto } from './cobv-valor.dto';

export * from './cobv-parts.dto';
export * from './cobv-valor.dto';

/** Members optional in both PUT and PATCH (schemas PayloadLocationCob and CobBase). */
abstract class CobVCommonDto {
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => LocDto)
  loc?: LocDto;

  @OptionalField()
  @IsString()
  @MaxLength(140)
  solicitacaoPagador?: string;

  // The schema writes `maximum: 50` on the array; read as maxItems 50.
  @OptionalField()
  @IsArray()
  @ArrayMaxSize(50)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => InfoAdicionalDto)
  infoAdicionais?: InfoAdicionalDto[];
}

/** PUT body: `calendario`, `devedor`, `valor` and `chave` are required. */
export class CobVSolicitadaDto extends CobVCommonDto {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CalendarioSolicitadoDto)
  calendario!: CalendarioSolicitadoDto;

  @IsDefined()
  @IsObject()
  @HasExactlyOneDocument()
  @ValidateNested()
  @Type(() => DevedorDto)
  devedor!: DevedorDto;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CobVValorSolicitadoDto)
  valor!: CobVValorSolicitadoDto;

  @IsDefined()
  @IsString()
  @MaxLength(77)
  chave!: string;
}

/** The only status a client may set (PATCH): the charge is withdrawn by the receiver. */
export const STATUS_REMOCAO_PELO_RECEBEDOR = 'REMOVIDA_PELO_USUARIO_RECEBEDOR' as const;

/**
 * PATCH body: every top-level member optional, and so are `calendario.dataDeVencimento` and
 * `valor.original` (a revision may change one field alone). Objects that are sent keep their
 * inner required members (devedor.nome + cpf|cnpj, multa.modalidade/valorPerc, ...).
 */
export class CobVRevisadaDto extends CobVCommonDto {
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => CalendarioRevisadoDto)
  calendario?: CalendarioRevisadoDto;

  @OptionalField()
  @IsObject()
  @HasExactlyOneDocument()
  @ValidateNested()
  @Type(() => DevedorDto)
  devedor?: DevedorDto;

  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => CobVValorRevisadoDto)
  valor?: CobVValorRevisadoDto;

  @OptionalField()
  @IsString()
  @MaxLength(77)
  chave?: string;

  @OptionalField()
  @IsIn([STATUS_REMOCAO_PELO_RECEBEDOR])
  status?: typeof STATUS_REMOCAO_PELO_RECEBEDOR;
}
