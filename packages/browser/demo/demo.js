// The demo shop's page logic: protects each form with the SDK and shows every decision.
(() => {
  const siteKey = document.body.dataset.siteKey;
  const list = document.getElementById('decisions');
  if (!window.Warden || !siteKey) {
    list.textContent = window.Warden ? 'No demo site key.' : 'The SDK did not load (is it built?).';
    return;
  }
  const warden = window.Warden.load({ siteKey, endpoint: location.origin });
  window.wardenDemo = { warden, decisions: [] };

  const el = (tag, props, children) => {
    const node = Object.assign(document.createElement(tag), props);
    for (const c of children ?? []) node.append(c);
    return node;
  };
  const pill = (text) => el('span', { className: `pill ${text}`, textContent: text });

  function show(title, decision) {
    window.wardenDemo.decisions.push(decision);
    const rows = decision.signals.map((s) =>
      el('tr', {}, [
        el('td', { textContent: s.rule }),
        el('td', { textContent: String(s.score) }),
        el('td', { textContent: s.description }),
      ]),
    );
    list.prepend(
      el('div', { className: 'decision' }, [
        el('strong', { textContent: `${title} ` }),
        pill(decision.classification),
        ' ',
        pill(decision.action),
        ` risk ${decision.risk_score} (${decision.risk_level}) · device ${decision.device_id || '–'} · ${decision.decision_ms} ms`,
        el('table', {}, rows),
      ]),
    );
  }

  const hashCard = async (card) => {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(card.replace(/\s/g, '')));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0'))
      .join('')
      .slice(0, 32);
  };

  for (const form of document.querySelectorAll('form[data-event]')) {
    const value = (name) => form.elements.namedItem(name)?.value;
    let paymentHash;
    form.addEventListener('input', () => {
      paymentHash = undefined;
    });
    warden.protectForm(form, {
      event_type: form.dataset.event,
      account_id: () => value('email') || 'anonymous',
      context: () => {
        const ctx = { email: value('email') };
        if (value('promo_code')) ctx.promo_code = value('promo_code');
        if (value('order_amount')) ctx.order_amount = Number(value('order_amount'));
        if (paymentHash) ctx.payment_hash = paymentHash;
        return ctx;
      },
      onDecision: (decision) => {
        show(form.querySelector('h2').textContent, decision);
        return false; // a real shop would submit to its server, which calls /verify and enforces the action
      },
      onError: (err) => list.prepend(el('div', { className: 'decision notice', textContent: String(err) })),
    });
    if (value('card')) hashCard(value('card')).then((h) => (paymentHash = h));
  }

  warden.collect({ event_type: 'page_view', account_id: 'anonymous' }).then(
    (d) => show('Page view', d),
    () => {},
  );

  document.getElementById('solve').addEventListener('click', async () => {
    const out = document.getElementById('pow-result');
    const bar = document.getElementById('progress');
    const raw = document.getElementById('difficulty').value.trim();
    try {
      const challenge = await warden.challenge(/^\d+$/.test(raw) ? Number(raw) : raw);
      bar.value = 0;
      const solution = await warden.solveChallenge(challenge, {
        onProgress: (p) => {
          bar.value = Math.min(1, p.hashes / (2 * p.expected));
          out.textContent = `${(p.hashes_per_second / 1e6).toFixed(2)} M hashes/s`;
        },
      });
      bar.value = 1;
      const check = await warden.verifyChallenge(solution);
      window.wardenDemo.lastSolution = { challenge, solution, check };
      out.textContent = `difficulty ${challenge.difficulty}: n = ${solution.nonce} in ${solution.took_ms} ms with ${solution.workers} ${solution.engine} worker(s), ${solution.hashes} hashes → ${check.valid ? 'valid' : `invalid (${check.reason})`}`;
    } catch (err) {
      out.textContent = String(err);
    }
  });
})();
