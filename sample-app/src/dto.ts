/** Arguments, forms and outputs as class-validator DTOs: one source for schemas and validation. */
import { Type } from 'class-transformer';
import {
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Field } from 'onemodelcontext';
import { AIRPORTS } from './catalog';

export class SearchArgs {
  @IsIn(AIRPORTS) @Field({ description: 'Departure airport (IATA code)' }) from!: string;
  @IsIn(AIRPORTS) @Field({ description: 'Arrival airport (IATA code)' }) to!: string;
  @IsOptional() @IsInt() @Min(1) @Max(500) @Field({ description: 'Highest price in EUR' }) maxPriceEur?: number;
}

export class FlightOffer {
  @IsString() id!: string;
  @IsString() date!: string;
  @IsInt() priceEur!: number;
  @IsInt() seatsLeft!: number;
}

export class SearchResult {
  @IsArray() @ValidateNested({ each: true }) @Type(() => FlightOffer) offers!: FlightOffer[];
}

export class BookArgs {
  @IsString() @Field({ description: 'Flight id from search_flights' }) flightId!: string;
}

/** The passenger form: flat primitives only, so it can be an elicitation form. */
export class PassengerForm {
  @IsString() @Length(2, 80) @Field({ title: 'Full name' }) fullName!: string;
  @IsEmail() @Field({ title: 'Email', description: 'Where the ticket is sent' }) email!: string;
  @IsIn(['window', 'aisle', 'middle'])
  @Field({ title: 'Seat', enumTitles: { window: 'Window', aisle: 'Aisle', middle: 'Middle' }, default: 'window' })
  seat = 'window';
}

export class HoldSeatArgs {
  @IsString() @Field({ description: 'Flight id' }) flightId!: string;
  @Matches(/^[1-9][A-D]$/) @Field({ description: 'Seat, e.g. 3A' }) seat!: string;
}

export class BookingRef {
  @IsString() @Field({ description: 'Booking reference, e.g. TD-000001' }) reference!: string;
}

export class PlanTripArgs {
  @IsString() @Field({ description: 'Where to go' }) destination!: string;
  @IsOptional() @IsString() @Field({ description: 'How many days' }) days?: string;
}

export class AccountArgs {
  @IsIn(['miles-and-more', 'flying-blue']) @Field({ description: 'Loyalty programme' }) programme!: string;
}
