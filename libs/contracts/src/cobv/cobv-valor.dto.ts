// `valor` of a cobv body (schema CobVValor). Modality ranges are shape (min/max in the schema);
// the cross-field modality rules (e.g. desconto 1|2 needs descontoDataFixa, 3..6 needs
// valorPerc) and "amount is zero" are the domain's.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsInt,
  IsObject,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  IntegerFromNumericString,
  IsCalendarDateString,
  itemIdentity,
  OptionalField,
} from '../validation/dto-decorators';
import { CONTRACT_PATTERNS } from '../validation/patterns';

const MONEY = CONTRACT_PATTERNS.money;

/** multa: 1 = valor fixo, 2 = percentual. */
export class MultaDto {
  @IsDefined()
  @IntegerFromNumericString()
  @IsInt()
  @Min(1)
  @Max(2)
  modalidade!: number;

  @IsDefined()
  @IsString()
  @Matches(MONEY)
  valorPerc!: string;
}

/** juros: 1..8 (valor/percentual ao dia/mês/ano, dias corridos ou úteis). */
export class JurosDto {
  @IsDefined()
  @IntegerFromNumericString()
  @IsInt()
  @Min(1)
  @Max(8)
  modalidade!: number;

  @IsDefined()
  @IsString()
  @Matches(MONEY)
  valorPerc!: string;
}

/** abatimento: 1 = valor fixo, 2 = percentual. */
export class AbatimentoDto {
  @IsDefined()
  @IntegerFromNumericString()
  @IsInt()
  @Min(1)
  @Max(2)
  modalidade!: number;

  @IsDefined()
  @IsString()
  @Matches(MONEY)
  valorPerc!: string;
}

/** One fixed-date discount: until `data`, discount `valorPerc`. */
export class DescontoDataFixaDto {
  @IsDefined()
  @IsCalendarDateString()
  data!: string;

  @IsDefined()
  @IsString()
  @Matches(MONEY)
  valorPerc!: string;
}

/** desconto: 1..6; either fixed-date list or a single `valorPerc`, as the modality decides. */
export class DescontoDto {
  @IsDefined()
  @IntegerFromNumericString()
  @IsInt()
  @Min(1)
  @Max(6)
  modalidade!: number;

  // minItems 1, maxItems 3, uniqueItems true; items must be objects (not nested arrays).
  @OptionalField()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  @ArrayUnique(itemIdentity)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => DescontoDataFixaDto)
  descontoDataFixa?: DescontoDataFixaDto[];

  @OptionalField()
  @IsString()
  @Matches(MONEY)
  valorPerc?: string;
}

/** Members shared by the PUT and PATCH `valor`. */
abstract class CobVValorBaseDto {
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => MultaDto)
  multa?: MultaDto;

  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => JurosDto)
  juros?: JurosDto;

  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => AbatimentoDto)
  abatimento?: AbatimentoDto;

  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => DescontoDto)
  desconto?: DescontoDto;
}

/** PUT `valor`: `original` is required (CobVSolicitada: `valor.allOf[required: original]`). */
export class CobVValorSolicitadoDto extends CobVValorBaseDto {
  @IsDefined()
  @IsString()
  @Matches(MONEY)
  original!: string;
}

/** PATCH `valor` (CobVRevisada): every member optional. */
export class CobVValorRevisadoDto extends CobVValorBaseDto {
  @OptionalField()
  @IsString()
  @Matches(MONEY)
  original?: string;
}
