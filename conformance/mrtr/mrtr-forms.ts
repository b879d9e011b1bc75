/** Elicitation forms of the SEP-2322 scenarios, exactly as the suite describes each requestedSchema. */
import { IsBoolean, IsString } from 'class-validator';

export class NameForm {
  @IsString() name!: string;
}

export class OkForm {
  @IsBoolean() ok!: boolean;
}

export class ColorForm {
  @IsString() color!: string;
}

export class ContextForm {
  @IsString() context!: string;
}
