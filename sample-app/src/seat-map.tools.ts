/**
 * An MCP App: `seat_map` shows a flight's seats in the host (a `ui://` resource the tool links);
 * the app calls `hold_seat` back through the host. `hold_seat` is for the app only: hosts keep it
 * out of the model's tool list.
 */
import { injectable } from 'tsyringe';
import { Tool } from 'onemodelcontext';
import { FLIGHTS } from './catalog';
import { BookArgs, HoldSeatArgs } from './dto';
import { SEAT_MAP_HTML } from './seat-map.html';

const LETTERS = ['A', 'B', 'C', 'D'];
const ROWS = 4;
const SEAT_MAP_URI = 'ui://seat_map/app.html';

/** Which seats are held, per flight: one for the application (in-process, like the booking store). */
export class SeatHolds {
  private readonly held = new Map<string, Set<string>>();

  of(flightId: string): Set<string> {
    let seats = this.held.get(flightId);
    if (!seats) this.held.set(flightId, (seats = new Set()));
    return seats;
  }
}

@injectable()
export class SeatMapTools {
  constructor(private readonly holds: SeatHolds) {}

  @Tool({
    description: 'Show the seat map of a flight, where the user picks a seat',
    annotations: { readOnlyHint: true },
    ui: { html: SEAT_MAP_HTML, uri: SEAT_MAP_URI, csp: {}, prefersBorder: true, title: 'Seat map' },
  })
  seat_map(args: BookArgs) {
    const flight = this.flight(args.flightId);
    const held = this.holds.of(flight.id);
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      row: i + 1,
      seats: LETTERS.map((l) => `${i + 1}${l}`).map((seat) => ({ seat, taken: held.has(seat) || seat.endsWith('B') })),
    }));
    const map = { flightId: flight.id, rows };
    return { content: [{ type: 'text', text: `Seat map of ${flight.id}: ${ROWS * LETTERS.length} seats` }], structuredContent: map };
  }

  @Tool({
    description: 'Hold a seat on a flight (called by the seat map app)',
    ui: { uri: SEAT_MAP_URI, visibility: ['app'] },
  })
  hold_seat(args: HoldSeatArgs) {
    const flight = this.flight(args.flightId);
    const held = this.holds.of(flight.id);
    if (held.has(args.seat) || args.seat.endsWith('B')) throw new Error(`Seat ${args.seat} is taken.`);
    held.add(args.seat);
    return `Seat ${args.seat} held on ${flight.id}.`;
  }

  private flight(id: string) {
    const flight = FLIGHTS.find((f) => f.id === id);
    if (!flight) throw new Error(`Unknown flight ${id}; use search_flights first.`);
    return flight;
  }
}
