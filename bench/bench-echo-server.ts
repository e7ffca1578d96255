import Fastify from 'fastify';

/** The baseline: a bare Fastify app that parses the same body and echoes it in the envelope. */
const app = Fastify({ bodyLimit: 256 * 1024 });
app.post('/api/antibot/verify', async (request, reply) =>
  reply.status(201).send({ success: true, data: request.body, timestamp: new Date().toISOString() }),
);
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.send?.({ type: 'ready', port: new URL(address).port });
let mark = process.cpuUsage();
process.on('message', async (message: { type: string }) => {
  if (message.type === 'mark') {
    mark = process.cpuUsage();
    process.send?.({ type: 'marked' });
  } else if (message.type === 'stats') {
    const cpu = process.cpuUsage(mark);
    process.send?.({ type: 'stats', cpuMs: (cpu.user + cpu.system) / 1000 });
  } else if (message.type === 'stop') {
    await app.close();
    process.exit(0);
  }
});
