import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for the browser tests: the app sends its email here, and tests read what
 * arrived over HTTP (`GET /messages?to=address`). Loopback only.
 */
const smtpPort = Number(process.env.SMTP_PORT);
const httpPort = Number(process.env.HTTP_PORT);
const received: { to: string[]; raw: string }[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({
        to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
        // Quoted-printable soft line breaks would split links.
        raw: Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, ''),
      });
      callback();
    });
  },
});
smtp.listen(smtpPort, '127.0.0.1');

createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const to = url.searchParams.get('to')?.toLowerCase();
  const messages = received.filter((message) => !to || message.to.includes(to));
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(messages));
}).listen(httpPort, '127.0.0.1');
