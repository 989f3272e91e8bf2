/**
 * The demo devices page (see routes.ts): the embedded default's simulated gateways, with the
 * buttons a person would otherwise press on the boxes themselves: the bind button, the power,
 * the network. Self-contained HTML, refreshed every 5 s, no scripts; each button is a form
 * posting to this page with the page's token.
 */
import type { GatewayState } from '@platform/gateway-sim';
import { escapeHtml } from '../auth/scan-page';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",system-ui,sans-serif;background:#f5f5f5;color:#1f1f1f}
main{max-width:860px;margin:24px auto;padding:0 16px}
h1{font-size:20px;margin:0 0 4px}
p{color:#666;line-height:1.5;margin:4px 0 16px}
.note{background:#fff7e6;border:1px solid #ffd591;border-radius:8px;padding:8px 12px;color:#613400}
.gw{background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:12px 16px;margin:0 0 12px}
.head{display:flex;flex-wrap:wrap;gap:8px;align-items:baseline}
.sn{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:16px;font-weight:600}
.muted{color:#8c8c8c;font-size:13px}
.tag{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;line-height:20px;border:1px solid}
.on{color:#389e0d;background:#f6ffed;border-color:#b7eb8f}
.off{color:#8c8c8c;background:#fafafa;border-color:#d9d9d9}
.blink{color:#d46b08;background:#fff7e6;border-color:#ffd591}
.actions{display:flex;flex-wrap:wrap;gap:8px;margin-top:10px}
form{margin:0}
button{font:inherit;font-size:14px;padding:4px 12px;border-radius:6px;border:1px solid #d9d9d9;background:#fff;cursor:pointer}
button.primary{background:#1677ff;border-color:#1677ff;color:#fff}
button:disabled{opacity:.45;cursor:not-allowed}
.empty{text-align:center;color:#999;padding:32px;background:#fff;border-radius:8px}
`;

function button(
  sn: string,
  token: string,
  action: string,
  label: string,
  opts: { primary?: boolean; disabled?: boolean } = {},
): string {
  return `<form method="post"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="sn" value="${escapeHtml(sn)}"><input type="hidden" name="action" value="${action}"><button type="submit"${opts.primary ? ' class="primary"' : ''}${opts.disabled ? ' disabled' : ''}>${label}</button></form>`;
}

function card(state: GatewayState, token: string): string {
  const tags: string[] = [];
  tags.push(
    state.online
      ? '<span class="tag on">在线 online</span>'
      : `<span class="tag off">离线 offline${state.powered ? '' : ' · 断电 power off'}</span>`,
  );
  if (state.bound === true) tags.push('<span class="tag on">已绑定 bound</span>');
  if (state.bound === false) tags.push('<span class="tag off">未绑定 unbound</span>');
  if (state.blinking)
    tags.push(
      `<span class="tag blink">绑定灯闪烁 bind light blinking · ${escapeHtml(state.blinking.company)} · ${escapeHtml(state.blinking.expiresAt.slice(11, 19))} UTC</span>`,
    );
  if (state.upgrade)
    tags.push(`<span class="tag blink">${escapeHtml(JSON.stringify(state.upgrade).slice(0, 80))}</span>`);
  const sn = state.sn;
  const actions = [
    button(sn, token, 'pressButton', '按绑定键 Press the bind button', {
      primary: true,
      disabled: !state.blinking,
    }),
    state.powered
      ? button(sn, token, 'powerCut', '断电 Cut the power')
      : button(sn, token, 'powerOn', '通电 Power on', { primary: true }),
    state.linkUp
      ? button(sn, token, 'goOffline', '断网 Unplug the network', { disabled: !state.powered })
      : button(sn, token, 'comeOnline', '联网 Plug the network in', { disabled: !state.powered }),
  ];
  return `<section class="gw"><div class="head"><span class="sn">${escapeHtml(sn)}</span><span class="muted">${escapeHtml(state.model)} · 固件 firmware ${escapeHtml(state.firmware)} · SIM ${escapeHtml(state.iccid)}</span>${tags.join('')}</div><div class="actions">${actions.join('')}</div></section>`;
}

export function demoDevicesPage(
  states: readonly GatewayState[],
  token: string,
  flash: string | null,
): string {
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="5;url=?">
<title>演示设备 Demo devices</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>演示设备 <span lang="en">Demo devices</span></h1>
<p>内置默认模式在服务器进程中运行几台模拟网关。这里是它们机身上的按键：在“设备列表”里按序列号绑定后，到这里按绑定键确认。本页只对本机开放，每 5 秒刷新。<br>
<span lang="en">The embedded default runs a few simulated gateways inside the server. These are the buttons on their boxes: bind one by its serial number in the device list, then press its bind button here to confirm. This page answers only on this machine and refreshes every 5 s.</span></p>
${flash ? `<p class="note">${escapeHtml(flash)}</p>` : ''}
${states.length > 0 ? states.map((s) => card(s, token)).join('\n') : '<div class="empty">没有演示设备（DEMO_GATEWAYS=off？）· No demo devices (DEMO_GATEWAYS=off?)</div>'}
</main>
</body>
</html>`;
}
