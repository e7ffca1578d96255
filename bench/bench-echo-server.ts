import Fastify from 'fastify';

/**
 * The baseline of `npm run bench`: a bare Fastify app that parses the same bodies and echoes them in
 * the envelope. Prints `{"port": N}` on stdout once listening; stops on SIGTERM.
 */
const app = Fastify({ bodyLimit: 256 * 1024 });
app.post('/api/antibot/verify', async (request, reply) =>
  reply.status(201).send({ success: true, data: request.body, timestamp: new Date().toISOString() }),
);
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
process.once('SIGTERM', () => {
  app.close().then(() => process.exit(0));
});
