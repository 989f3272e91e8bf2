/**
 * The pages of the scan-code login that this server shows: the messaging-app stand-in, opened
 * on a phone from the QR code, and the page the messaging app's redirect lands on (inside the
 * login page's frame). Self-contained (inline CSS, no scripts, no external assets), in
 * Chinese and English. Everything interpolated is escaped; the CSP header sent with them
 * forbids scripts anyway.
 */
import { CATALOGUE, type ErrorKey, NAME_MAX_LENGTH } from '@platform/domain';

export const SCAN_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
} as const;

/** The provider's callback lands in the login page's frame: framing by this origin only. */
export const CALLBACK_PAGE_HEADERS = {
  ...SCAN_PAGE_HEADERS,
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'",
} as const;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",system-ui,sans-serif;background:#ededed;color:#1f1f1f}
header{background:#2e2e2e;color:#fff;padding:14px 16px;font-size:17px;text-align:center}
main{max-width:420px;margin:24px auto;padding:0 16px}
.card{background:#fff;border-radius:12px;padding:24px 20px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:20px;margin:0 0 4px;text-align:center}
.en{color:#666;font-size:14px}
h1 .en{display:block;font-weight:normal;margin-top:2px}
p{line-height:1.5;margin:12px 0}
label{display:block;font-size:15px;margin:20px 0 6px}
input{width:100%;font-size:17px;padding:12px;border:1px solid #d0d0d0;border-radius:8px}
button{width:100%;margin-top:20px;padding:14px;font-size:17px;color:#fff;background:#07c160;border:0;border-radius:8px}
.error{color:#d4380d;background:#fff2e8;border-radius:8px;padding:10px 12px}
.icon{font-size:48px;text-align:center;margin:8px 0}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>扫码登录 <span lang="en">Scan to log in</span></header>
<main><div class="card">
${body}
</div></main>
</body>
</html>`;
}

function bilingual(key: ErrorKey): string {
  const entry = CATALOGUE[key];
  return `${escapeHtml(entry.zh)}<br><span class="en" lang="en">${escapeHtml(entry.en)}</span>`;
}

/**
 * The confirm form. The account is the secret this browser keeps (set when it first opened a
 * stand-in page); the nickname is only the name the platform shows.
 */
export function scanFormPage(options: { nickname?: string; error?: ErrorKey } = {}): string {
  const error = options.error ? `<p class="error" role="alert">${bilingual(options.error)}</p>` : '';
  const value = options.nickname ? ` value="${escapeHtml(options.nickname)}"` : '';
  return page(
    '扫码登录 / Scan to log in',
    `<h1>扫码登录<span class="en" lang="en">Scan to log in</span></h1>
<p>这是社交通讯应用的模拟页面。你的身份是此浏览器保存的一个随机密钥（首次打开本页时生成），而不是昵称：昵称只是显示的名字。确认后，电脑上的平台将以此浏览器的身份登录；换一部手机或浏览器即是另一个人。<br>
<span class="en" lang="en">This page stands in for the messaging app. Your identity is a random secret this browser keeps (made the first time it opened this page), not the nickname: the nickname is only the name shown. Confirm to log in on the computer as this browser's identity; another phone or browser is another person.</span></p>
${error}
<form method="post" action="">
<label for="nickname">昵称（显示名） <span class="en" lang="en">Nickname (display name)</span></label>
<input id="nickname" name="nickname" required maxlength="${NAME_MAX_LENGTH}" autocomplete="nickname"${value}>
<button type="submit">确认登录 <span lang="en">Confirm</span></button>
</form>`,
  );
}

export function scanConfirmedPage(nickname: string): string {
  return page(
    '已确认 / Confirmed',
    `<div class="icon" aria-hidden="true">✓</div>
<h1>已确认，请回到电脑上继续<span class="en" lang="en">Confirmed, return to the computer</span></h1>
<p style="text-align:center">${escapeHtml(nickname)}</p>`,
  );
}

export function scanExpiredPage(): string {
  return page(
    '二维码已失效 / QR code expired',
    `<div class="icon" aria-hidden="true">⌛</div>
<h1>二维码已失效<span class="en" lang="en">This QR code has expired</span></h1>
<p style="text-align:center">请在电脑上刷新二维码后重新扫描。<br><span class="en" lang="en">Refresh the QR code on the computer and scan it again.</span></p>`,
  );
}

/** The scan-code login is off here (no provider configured, or another one than this page's). */
export function scanUnavailablePage(): string {
  return page(
    '扫码登录未配置 / Scan login not configured',
    `<div class="icon" aria-hidden="true">⊘</div>
<h1>${bilingual('scanNotConfigured')}</h1>`,
  );
}

/** The messaging app's redirect could not be turned into a login. */
export function scanFailedPage(): string {
  return page(
    '登录未完成 / Login not completed',
    `<div class="icon" aria-hidden="true">!</div>
<p style="text-align:center">${bilingual('scanProviderFailed')}</p>`,
  );
}
