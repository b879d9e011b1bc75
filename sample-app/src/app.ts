/** The travel desk application: an explicit provider list and configuration modules. */
import 'reflect-metadata';
import { ContextServerModule, McpApplication } from 'onemodelcontext';
import { RedisModule } from 'onemodelcontext/redis';
import { AccountTools, APP, registerLoyaltyTool, type AppHolder } from './account.tools';
import { BookingStore } from './catalog';
import { FlightTools } from './flights.tools';
import { Guides } from './guides';
import { ReportTools } from './reports.tools';
import { SeatHolds, SeatMapTools } from './seat-map.tools';
import { TravelSkills } from './skills';

/** `redisUrl`: a fleet's shared stores (docs/deployment.md); without it everything stays in this process. */
export function createTravelDesk(options: { requestStateKey?: string; redisUrl?: string } = {}): McpApplication {
  const holder: AppHolder = {};
  const app = McpApplication.create({
    name: 'travel-desk',
    version: '1.0.0',
    providers: [
      BookingStore,
      FlightTools,
      SeatHolds,
      SeatMapTools,
      ReportTools,
      AccountTools,
      Guides,
      TravelSkills,
      { provide: APP, useValue: holder },
    ],
    modules: [
      ContextServerModule.configure({
        requestStateKey: options.requestStateKey,
        instructions: 'Search flights before booking. Bookings ask the user to confirm.',
      }),
      ...(options.redisUrl ? [RedisModule.configure({ url: options.redisUrl })] : []),
    ],
  });
  holder.current = app;
  registerLoyaltyTool(app);
  return app;
}
