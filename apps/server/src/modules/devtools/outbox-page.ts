/** The SMS outbox page (see routes.ts): self-contained HTML, refreshed every 5 s, no scripts. */
import type { OutboxEntry } from '../../platform/sms';
import { escapeHtml } from '../auth/scan-page';
import { SMS_CODE_TTL_MS } from '../auth/sms-codes';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",system-ui,sans-serif;background:#f5f5f5;color:#1f1f1f}
main{max-width:640px;margin:24px auto;padding:0 16px}
h1{font-size:20px;margin:0 0 4px}
p{color:#666;line-height:1.5;margin:4px 0 16px}
table{width:100%;border-collapse:collapse;background:#fff;border-radius:8px;overflow:hidden;box-shadow:0 1px 3px rgba(0,0,0,.08)}
th,td{text-align:left;padding:10px 12px;border-bottom:1px solid #f0f0f0;font-size:15px}
th{background:#fafafa;font-weight:600}
.code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:20px;letter-spacing:2px}
.expired{color:#bfbfbf}
.expired .code{text-decoration:line-through}
.empty{text-align:center;color:#999;padding:32px}
`;

function time(date: Date): string {
  return date.toTimeString().slice(0, 8);
}

export function outboxPage(entries: readonly OutboxEntry[], now: Date): string {
  const rows = entries
    .map((entry) => {
      const expired = now.getTime() - entry.sentAt.getTime() >= SMS_CODE_TTL_MS;
      return `<tr${expired ? ' class="expired"' : ''}><td>${escapeHtml(entry.phone)}</td><td class="code">${escapeHtml(entry.code)}</td><td>${time(entry.sentAt)}${expired ? ' · 已过期 expired' : ''}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="5">
<title>短信收件箱 SMS outbox</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>短信收件箱 <span lang="en">SMS outbox</span></h1>
<p>内置默认模式不发送短信：验证码显示在这里和服务器控制台，有效 5 分钟。本页只对本机开放，每 5 秒刷新。<br>
<span lang="en">The embedded default sends no SMS: codes appear here and on the server's console, valid 5 minutes. This page answers only on this machine and refreshes every 5 s.</span></p>
<table>
<thead><tr><th>手机号 Phone</th><th>验证码 Code</th><th>发送时间 Sent</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="3" class="empty">还没有验证码 · No codes yet</td></tr>'}
</tbody>
</table>
</main>
</body>
</html>`;
}
