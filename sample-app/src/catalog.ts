/** The embedded flight catalog and booking store: no external service needed. */
export interface Flight {
  id: string;
  from: string;
  to: string;
  date: string;
  priceEur: number;
  seatsLeft: number;
}

export const AIRPORTS = ['AMS', 'BCN', 'BER', 'CDG', 'FCO', 'LHR', 'LIS', 'MAD', 'MUC', 'VIE'] as const;

export const FLIGHTS: readonly Flight[] = Object.freeze(
  AIRPORTS.flatMap((from, i) =>
    AIRPORTS.filter((to) => to !== from).map((to, j) => ({
      id: `${from}-${to}-${100 + i * 10 + j}`,
      from,
      to,
      date: `2027-01-${String(((i + j) % 28) + 1).padStart(2, '0')}`,
      priceEur: 49 + ((i * 37 + j * 53) % 250),
      seatsLeft: (i + j) % 7,
    })),
  ),
);

export interface Booking {
  reference: string;
  flightId: string;
  passenger: { fullName: string; email: string; seat: string };
  chargedEur: number;
}

/** In-process store; a real deployment would use a database (and idempotency keys). */
export class BookingStore {
  private readonly bookings = new Map<string, Booking>();
  charges = 0;

  charge(amountEur: number): string {
    this.charges++;
    return `ch_${this.charges.toString().padStart(6, '0')}_${amountEur}`;
  }
  save(b: Booking): void {
    this.bookings.set(b.reference, b);
  }
  /** The catalog's free seats less the ones booked here. */
  seatsLeft(flight: Flight): number {
    return Math.max(0, flight.seatsLeft - this.all().filter((b) => b.flightId === flight.id).length);
  }
  get(reference: string): Booking | undefined {
    return this.bookings.get(reference);
  }
  all(): Booking[] {
    return [...this.bookings.values()];
  }
}
