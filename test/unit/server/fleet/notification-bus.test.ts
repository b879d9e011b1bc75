/** The in-process NotificationBus: every subscriber hears each event; unsubscribe stops it; bad input is refused. */
import { InProcessNotificationBus, isNotificationBusEvent } from '../../../../src/server/fleet/notification-bus';
import { notificationBusContract } from '../../../helpers/contracts/notification-bus';

describe('the NotificationBus contract', () => notificationBusContract(async () => {
  const bus = new InProcessNotificationBus();
  return [bus, bus];
}));

test('only well-formed events pass the guard', () => {
  expect(isNotificationBusEvent({ type: 'listChanged', list: 'tools', instanceId: 'a' })).toBe(true);
  expect(isNotificationBusEvent({ type: 'resourceUpdated', uri: 'x://1', instanceId: 'a' })).toBe(true);
  expect(isNotificationBusEvent({ type: 'listChanged', list: 'tables', instanceId: 'a' })).toBe(false);
  expect(isNotificationBusEvent({ type: 'listChanged', list: 'tools' })).toBe(false);
  expect(isNotificationBusEvent(null)).toBe(false);
});
