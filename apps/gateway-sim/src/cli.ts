/**
 * `npm run sim -- --url mqtt://127.0.0.1:1883 --gateways fleet.json` (or `--count 100 --prefix SIM`):
 * a fleet of simulated gateways for people, with commands typed at its prompt for the faults
 * (`help` lists them). See apps/gateway-sim/README.md.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { FAILURE_REASONS, type FailureReason, UPGRADE_STEPS } from './firmware';
import { type Fleet, startFleet } from './fleet';
import type { SimGateway } from './gateway';
import { sharedPollingConfig } from './layouts';
import { SLAVE_FAULTS, type SlaveFault } from './modbus/slave';
import type { GatewaySpec, SimLog } from './types';

const USAGE = `usage: npm run sim -- (--url mqtt://host:port | --local-broker) (--gateways file.json|file.csv | --count N [--prefix SIM]) [options]

  --url URL            the platform's MQTT broker (the embedded one: mqtt://127.0.0.1:1883)
  --local-broker       start a broker without authentication here instead (trying things out)
  --gateways FILE      JSON array of {sn, secret, model?, firmware?, iccid?, ports?, config?},
                       or CSV with a header naming sn and secret (the platform's secrets download)
  --count N            N generated gateways (<prefix>000001…); their secrets are made up, so
                       only a broker without authentication lets them in
  --prefix TEXT        serial number prefix of generated gateways (default SIM)
  --poll SECONDS       each gateway starts with a configuration polling its slaves this often
                       (as if pushed before); without it, a gateway polls what the platform pushes
  --slaves N           with --poll: read only the first N slaves of each gateway
  --speed N            upgrades and reboots N times faster than real (default 1: 2-3 minutes)
  --keepalive SECONDS  MQTT keep-alive (default 30)
  --rate N             connects per second while starting (default 200)
  --firmware V         firmware version of generated gateways (default 1.0.0)
`;

const COMMANDS = `commands (<sn> may be * for every gateway):
  list [N]                                   the first N gateways (default 20), one line each
  show <sn>                                  everything about one gateway (JSON)
  stats                                      totals of the fleet
  press <sn>                                 press the bind button
  power-off <sn> [seconds] [silent]          pull the plug (the will follows at once, or with
                                             silent when the keep-alive runs out); back after seconds
  power-on <sn>                              power back on
  offline <sn> [polite|silent]               the network goes (socket closed, a goodbye, or silence)
  online <sn>                                the network comes back
  sim <sn> [iccid]                           put in another SIM card
  slave <sn> <port> <address> <fault>        a slave goes ${SLAVE_FAULTS.join(' | ')}
  reject-config <sn> [message]               the next configuration is rejected
  lose-network-after-config <sn>             the next configuration is applied, then the network goes
  fail-upgrade <sn> <${FAILURE_REASONS.join('|')}>      the next upgrade fails there
  power-loss-upgrade <sn> <step> [seconds]   the power goes after that step of the next upgrade
                                             (${UPGRADE_STEPS.slice(0, 4).join(', ')})
  quit                                       everyone says goodbye, then exit
`;

/** Gateways of a JSON or CSV file. */
export function readGatewaysFile(file: string): GatewaySpec[] {
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  if (file.toLowerCase().endsWith('.csv')) return parseCsv(text);
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array of gateways`);
  return parsed as GatewaySpec[];
}

/** The sn and secret columns of a CSV (others, such as a model or an ICCID column, when named so). */
export function parseCsv(text: string): GatewaySpec[] {
  const rows = text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map(splitCsvLine);
  const header = (rows.shift() ?? []).map((h) => h.trim().toLowerCase());
  const col = (...names: string[]) => header.findIndex((h) => names.includes(h));
  const sn = col('sn', 'serial', 'serialnumber', 'serial number', '序列号');
  const secret = col('secret', 'password', '密钥');
  if (sn < 0 || secret < 0) throw new Error('the CSV needs a header with sn and secret columns');
  const model = col('model', '型号');
  const firmware = col('firmware', '固件');
  const iccid = col('iccid');
  return rows.map((r) => ({
    sn: r[sn]!.trim(),
    secret: r[secret]!.trim(),
    ...(model >= 0 && r[model] ? { model: r[model]!.trim() } : {}),
    ...(firmware >= 0 && r[firmware] ? { firmware: r[firmware]!.trim() } : {}),
    ...(iccid >= 0 && r[iccid] ? { iccid: r[iccid]!.trim() } : {}),
  }));
}

function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  out.push(cell);
  return out;
}

function line(g: SimGateway): string {
  const s = g.state();
  const flags = [
    s.powered ? (s.online ? 'online ' : s.linkUp ? 'connecting' : 'offline') : 'power off',
    `fw ${s.firmware}`,
    s.config ? `config v${s.config.version}${s.pendingConfig ? ' (pending)' : ''}` : 'no config',
    s.blinking ? `BLINKING for ${s.blinking.company || 'a bind request'}` : '',
    s.upgrade
      ? `upgrade ${s.upgrade.upgradeId}: ${s.upgrade.state}${s.upgrade.progress !== undefined ? ` ${s.upgrade.progress}%` : ''}`
      : '',
    s.ports
      .filter((p) => !p.ok)
      .map((p) => `port ${p.port}: ${p.error}`)
      .join(', '),
    `frames ${s.counters.framesPublished}`,
  ].filter(Boolean);
  return `${s.sn.padEnd(14)} ${flags.join(' · ')}`;
}

const GATEWAY_COMMANDS = [
  'show',
  'press',
  'power-off',
  'power-on',
  'offline',
  'online',
  'sim',
  'slave',
  'reject-config',
  'lose-network-after-config',
  'fail-upgrade',
  'power-loss-upgrade',
];

/** Runs one typed command; returns what to print. */
export async function runCommand(fleet: Fleet, input: string): Promise<string> {
  const [cmd, target, ...rest] = input.trim().split(/\s+/);
  if (!cmd) return '';
  if (cmd === 'help') return COMMANDS;
  if (cmd === 'stats') return JSON.stringify(fleet.stats());
  if (cmd === 'list') {
    const n = Number(target ?? 20);
    return [...fleet.gateways.values()]
      .slice(0, Number.isFinite(n) ? n : 20)
      .map(line)
      .join('\n');
  }
  if (!GATEWAY_COMMANDS.includes(cmd)) return `unknown command ${cmd} (help lists them)`;
  if (!target) return `${cmd}: which gateway? (help lists the commands)`;
  const targets =
    target === '*' ? [...fleet.gateways.values()] : [fleet.get(target)].filter((g): g is SimGateway => !!g);
  if (targets.length === 0) return `no gateway ${target}`;
  const each = async (fn: (g: SimGateway) => unknown) => {
    const out: string[] = [];
    for (const g of targets) out.push(`${g.sn}: ${JSON.stringify((await fn(g)) ?? 'ok')}`);
    return out.slice(0, 50).join('\n') + (out.length > 50 ? `\n… and ${out.length - 50} more` : '');
  };
  const seconds = (text: string | undefined) => (text === undefined ? undefined : Number(text) * 1000);
  switch (cmd) {
    case 'show':
      return JSON.stringify(targets[0]!.state(), null, 2);
    case 'press':
      return each((g) => g.pressBindButton());
    case 'power-off': {
      const silent = rest.includes('silent');
      const secs = rest.find((r) => r !== 'silent');
      return each((g) => g.powerCut(seconds(secs), silent ? 'silent' : 'kill'));
    }
    case 'power-on':
      return each((g) => g.powerOn());
    case 'offline':
      return each((g) => g.goOffline(rest[0] === 'polite' || rest[0] === 'silent' ? rest[0] : 'kill'));
    case 'online':
      return each((g) => g.comeOnline());
    case 'sim':
      return each((g) => g.swapSim(rest[0]));
    case 'slave': {
      const [port, address, fault] = rest;
      if (!(SLAVE_FAULTS as readonly string[]).includes(fault ?? ''))
        return `fault: ${SLAVE_FAULTS.join(' | ')}`;
      return each(
        (g) => g.setSlaveFault(Number(port), Number(address), fault as SlaveFault) || 'no such slave',
      );
    }
    case 'reject-config':
      return each((g) => g.rejectNextConfig(rest.join(' ') || undefined));
    case 'lose-network-after-config':
      return each((g) => g.loseNetworkAfterNextConfig());
    case 'fail-upgrade': {
      const reason = rest[0] as FailureReason;
      if (!FAILURE_REASONS.includes(reason)) return `reason: ${FAILURE_REASONS.join(' | ')}`;
      return each((g) => g.failNextUpgrade(reason));
    }
    case 'power-loss-upgrade': {
      const step = rest[0] as 'accepted' | 'downloading' | 'verifying' | 'installing';
      if (!UPGRADE_STEPS.slice(0, 4).includes(step)) return `step: ${UPGRADE_STEPS.slice(0, 4).join(' | ')}`;
      return each((g) => g.losePowerDuringNextUpgrade(step, seconds(rest[1])));
    }
    default:
      return `unknown command ${cmd} (help lists them)`;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      'local-broker': { type: 'boolean' },
      gateways: { type: 'string' },
      count: { type: 'string' },
      prefix: { type: 'string' },
      poll: { type: 'string' },
      slaves: { type: 'string' },
      speed: { type: 'string' },
      keepalive: { type: 'string' },
      rate: { type: 'string' },
      firmware: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || (!values.url && !values['local-broker']) || (!values.gateways && !values.count)) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 1);
  }
  let url = values.url ?? '';
  let closeBroker: (() => Promise<void>) | null = null;
  if (values['local-broker']) {
    const { startLocalBroker } = await import('./testing/broker');
    const broker = await startLocalBroker();
    url = broker.url;
    closeBroker = broker.close;
    console.log(`local broker without authentication: ${url}`);
  }
  const log: SimLog = {
    info: () => {},
    warn: (obj, msg) => console.warn(`! ${msg ?? ''} ${JSON.stringify(obj)}`),
  };
  const poll = values.poll === undefined ? undefined : Number(values.poll);
  const fleet = await startFleet({
    url,
    log,
    ...(values.gateways ? { gateways: readGatewaysFile(values.gateways) } : {}),
    ...(values.count ? { count: Number(values.count) } : {}),
    ...(values.prefix ? { prefix: values.prefix } : {}),
    ...(values.firmware ? { firmware: values.firmware } : {}),
    ...(values.speed ? { speed: Number(values.speed) } : {}),
    ...(values.keepalive ? { keepalive: Number(values.keepalive) } : {}),
    ...(values.rate ? { connectRate: Number(values.rate) } : {}),
    ...(poll
      ? {
          config: sharedPollingConfig({
            intervalS: poll,
            ...(values.slaves ? { slaves: Number(values.slaves) } : {}),
          }),
        }
      : {}),
  });
  console.log(`${fleet.gateways.size} gateways connecting to ${url}; type help for the commands`);
  let quitting = false;
  const quit = async () => {
    if (quitting) return;
    quitting = true;
    console.log('saying goodbye…');
    await fleet.stop();
    await closeBroker?.();
    process.exit(0);
  };
  process.on('SIGINT', quit);
  process.on('SIGTERM', quit);
  const typed = process.stdin.isTTY === true;
  // piped in or not typed at: report now and then
  if (!typed)
    setInterval(
      () => console.log(JSON.stringify({ at: new Date().toISOString(), ...fleet.stats() })),
      10_000,
    );
  // commands come from the prompt, or line by line from a pipe (a script of faults)
  const rl = createInterface({
    input: process.stdin,
    output: typed ? process.stdout : undefined,
    prompt: 'sim> ',
  });
  if (typed) rl.prompt();
  let queue = Promise.resolve();
  rl.on('line', (text) => {
    queue = queue.then(async () => {
      if (text.trim() === 'quit' || text.trim() === 'exit') return quit();
      try {
        const out = await runCommand(fleet, text);
        if (out) console.log(out);
      } catch (error) {
        console.log(`error: ${(error as Error).message}`);
      }
      if (typed) rl.prompt();
    });
  });
  // Ctrl-D at the prompt ends the fleet; the end of a piped script leaves it running
  rl.on('close', () => {
    if (typed) void quit();
  });
}

if (process.argv[1] && /cli\.[tj]s$/.test(process.argv[1])) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
