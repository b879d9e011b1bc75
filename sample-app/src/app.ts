/** The travel desk application: an explicit provider list and configuration modules. */
import 'reflect-metadata';
import { ContextServerModule, McpApplication } from 'onemodelcontext';
import { AccountTools, APP, type AppHolder } from './account.tools';
import { BookingStore } from './catalog';
import { FlightTools } from './flights.tools';
import { Guides } from './guides';

export function createTravelDesk(options: { requestStateKey?: string } = {}): McpApplication {
  const holder: AppHolder = {};
  const app = McpApplication.create({
    name: 'travel-desk',
    version: '1.0.0',
    providers: [BookingStore, FlightTools, AccountTools, Guides, { provide: APP, useValue: holder }],
    modules: [
      ContextServerModule.configure({
        requestStateKey: options.requestStateKey,
        instructions: 'Search flights before booking. Bookings ask the user to confirm.',
      }),
    ],
  });
  holder.current = app;
  return app;
}
