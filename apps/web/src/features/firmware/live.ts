/**
 * Upgrades followed live: the device socket (features/devices/live.ts) sends
 * `{"type":"upgrade","deviceId":…,"upgrade":…}` at every change of state or progress; each is
 * merged into what the firmware pages hold (the device's view, its history, a batch). When the
 * socket comes back after a break, everything is read afresh, so nothing missed stays missed.
 * The pages also read again now and then while an upgrade is live: the socket is the fast
 * path, not the only one.
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Page } from '../../shared/paging';
import { type BindEvent, type DeviceStateEvent, type UpgradeEvent, useDeviceLive } from '../devices/live';
import { type BatchView, type DeviceFirmware, firmwareKeys, type Upgrade } from './api';

/** Merges an upgrade's new state into every cached firmware view that shows it. */
export function applyUpgrade(client: QueryClient, upgrade: Upgrade): void {
  let unknownRow = false;
  client.setQueriesData<DeviceFirmware>({ queryKey: ['firmware', 'device'] }, (view) => {
    if (!view || view.device.id !== upgrade.deviceId) return view;
    // the newest upgrade is the one the page follows; an older one's late event changes nothing
    if (view.upgrade && view.upgrade.id > upgrade.id) return view;
    const reachedTarget = upgrade.state === 'success';
    return {
      ...view,
      device: reachedTarget ? { ...view.device, firmware: upgrade.version } : view.device,
      upgrade: view.upgrade?.id === upgrade.id ? { ...view.upgrade, ...upgrade } : upgrade,
    };
  });
  client.setQueryData<Upgrade>(firmwareKeys.upgrade(upgrade.deviceId, upgrade.id), (old) =>
    old ? { ...old, ...upgrade } : old,
  );
  client.setQueriesData<Page<Upgrade>>({ queryKey: ['firmware', 'upgrades', upgrade.deviceId] }, (page) => {
    if (!page) return page;
    if (!page.list.some((row) => row.id === upgrade.id)) {
      unknownRow = true;
      return page;
    }
    return { ...page, list: page.list.map((row) => (row.id === upgrade.id ? { ...row, ...upgrade } : row)) };
  });
  if (upgrade.batchId != null) {
    client.setQueryData<BatchView>(firmwareKeys.batch(upgrade.batchId), (batch) => {
      if (!batch) return batch;
      const list = batch.list.map((row) => (row.id === upgrade.id ? { ...row, ...upgrade } : row));
      const counts: BatchView['counts'] = {};
      for (const row of list) counts[row.state] = (counts[row.state] ?? 0) + 1;
      return { ...batch, list, counts };
    });
  }
  // a new upgrade (a retry, one started elsewhere) joins the history when it is read again
  if (unknownRow) void client.invalidateQueries({ queryKey: ['firmware', 'upgrades', upgrade.deviceId] });
}

/** A gateway's new online state and firmware, into the firmware pages' device views. */
function applyDevice(client: QueryClient, event: DeviceStateEvent): void {
  client.setQueriesData<DeviceFirmware>({ queryKey: ['firmware', 'device'] }, (view) =>
    view && view.device.id === event.id
      ? { ...view, device: { ...view.device, online: event.online, firmware: event.firmware } }
      : view,
  );
}

/** Follows upgrades (and gateways' online states) on the device socket while mounted. */
export function useUpgradeLive(onUpgrade?: (upgrade: Upgrade) => void): { connected: boolean } {
  const client = useQueryClient();
  const handler = useRef(onUpgrade);
  handler.current = onUpgrade;
  const onDevice = (event: DeviceStateEvent | BindEvent) => {
    if (event.type === 'device') applyDevice(client, event);
  };
  const { connected } = useDeviceLive(onDevice, true, (event: UpgradeEvent) => {
    const upgrade = event.upgrade as unknown as Upgrade;
    applyUpgrade(client, upgrade);
    handler.current?.(upgrade);
  });
  const wasConnected = useRef(false);
  useEffect(() => {
    // the socket is back after a break: what changed meanwhile is read afresh
    if (connected && wasConnected.current === false) {
      void client.invalidateQueries({ queryKey: firmwareKeys.all });
    }
    wasConnected.current = connected;
  }, [connected, client]);
  return { connected };
}
