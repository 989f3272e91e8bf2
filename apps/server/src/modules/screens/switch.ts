/**
 * Working a switch of a configuration screen or of a device's flow chart: its on or off command
 * (a command node of the device's running configuration) goes out on down/command. The caller
 * has checked the read-write level and found the switch; here the device must be online and the
 * command still one of its configuration's, and every attempt lands in the device's operation
 * log with the `data` the caller names it by.
 */
import { type ScreenBody, type ScreenElement, SWITCH_STATES } from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import { Envelope, Id, Literals } from '../../platform/schemas';
import type { DataCaller } from '../cabin/permissions';
import { logOperation } from '../devices/operation-log';
import { deviceCommands, type ScreenDevice } from './service';

/** what a switch route takes: the device, the switch's element and on or off */
export const SwitchBody = Type.Object({
  id: Id,
  elementId: Type.String({ maxLength: 32 }),
  state: Literals(SWITCH_STATES),
});
/** what it answers: the operation log entry and the command sent */
export const SwitchAnswer = Envelope(Type.Object({ operationId: Type.Integer(), command: Type.String() }));

type SwitchElement = Extract<ScreenElement, { type: 'switch' }>;

/** The switch `elementId` of `body`, or the error naming the element the caller asked for. */
export function findSwitch(body: ScreenBody, elementId: string): SwitchElement {
  const element = body.elements.find((e) => e.id === elementId);
  if (element?.type !== 'switch')
    throw new AppError('screenSwitchUnknown', { field: 'elementId', id: elementId }, { field: 'elementId' });
  return element;
}

export async function sendSwitchCommand(
  app: App,
  request: FastifyRequest,
  who: DataCaller,
  device: ScreenDevice,
  command: string,
  data: Record<string, unknown>,
): Promise<number> {
  const base = {
    companyId: who.companyId,
    gatewayId: device.id,
    kind: 'command' as const,
    actor: { userId: who.userId },
  };
  const logged = { command, ...data };
  if (!device.online) {
    await logOperation(app.db, {
      ...base,
      result: 'failed',
      detail: `${command}: the gateway is offline`,
      data: { ...logged, reason: 'offline' },
    });
    throw new AppError('gatewayOfflineCommand');
  }
  // the configuration may have changed since the screen was saved or the chart mapped
  if (!(await deviceCommands(app.db, who.companyId, device.id)).includes(command))
    throw new AppError('screenCommandUnknown', { field: 'state', name: command }, { field: 'state' });
  try {
    await app.gateways.send(device.serialNumber, 'command', { command }, 1);
  } catch (error) {
    request.log.warn({ err: error }, 'a switch command could not be sent');
    await logOperation(app.db, {
      ...base,
      result: 'failed',
      detail: command,
      data: { ...logged, reason: 'broker' },
    });
    throw new AppError('mqttBrokerUnavailableGateway');
  }
  return logOperation(app.db, { ...base, result: 'ok', detail: command, data: logged });
}
