import { InMemoryEventStore } from '../../../../src/transports/http/event-store';
import { eventStoreContract } from '../../../helpers/contracts/event-store';

describe('the EventStore contract', () => eventStoreContract(() => new InMemoryEventStore()));
