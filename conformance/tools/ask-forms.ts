/** Elicitation forms of the 2025-11-25 ask scenarios: each DTO is the requestedSchema and the answer's validator. */
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
} from 'class-validator';
import { Field } from '../../src';

/** `tools-call-elicitation`: the harness answers {username, email}. */
export class UserResponseForm {
  @Field({ description: "User's response" }) @IsString() username!: string;
  @Field({ description: "User's email address" }) @IsEmail() email!: string;
}

/** `elicitation-sep1034-defaults`: every primitive carries a default, so nothing is required. */
export class DefaultsForm {
  @Field({ description: 'User name', default: 'John Doe' }) @IsString() name!: string;
  @Field({ description: 'User age', default: 30 }) @IsInt() age!: number;
  @Field({ description: 'User score', default: 95.5 }) @IsNumber() score!: number;
  @Field({ description: 'User status', default: 'active' }) @IsIn(['active', 'inactive', 'pending']) status!: string;
  @Field({ description: 'Verification status', default: true }) @IsBoolean() verified!: boolean;
}

const OPTIONS = ['option1', 'option2', 'option3'];
const VALUES = ['value1', 'value2', 'value3'];

/** `elicitation-sep1330-enums`: the five enum shapes, all optional like the reference fixture. */
export class EnumsForm {
  @Field({ description: 'Select one option' }) @IsOptional() @IsIn(OPTIONS) untitledSingle?: string;

  @Field({
    description: 'Select one option with titles',
    enumTitles: { value1: 'First Option', value2: 'Second Option', value3: 'Third Option' },
  })
  @IsOptional()
  @IsIn(VALUES)
  titledSingle?: string;

  @Field({
    description: 'Select one option (legacy)',
    enumTitles: { opt1: 'Option One', opt2: 'Option Two', opt3: 'Option Three' },
    legacyEnumNames: true,
  })
  @IsOptional()
  @IsIn(['opt1', 'opt2', 'opt3'])
  legacyEnum?: string;

  @Field({ description: 'Select multiple options' })
  @IsOptional()
  @IsIn(OPTIONS, { each: true })
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  untitledMulti?: string[];

  @Field({
    description: 'Select multiple options with titles',
    enumTitles: { value1: 'First Choice', value2: 'Second Choice', value3: 'Third Choice' },
  })
  @IsOptional()
  @IsIn(VALUES, { each: true })
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  titledMulti?: string[];
}
