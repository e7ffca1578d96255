/**
 * The preset dictionary of packed decision rows, format 1 (packed-row.ts): the JSON of two synthetic
 * decisions as the engine recorded them (one of bench/soak-support.ts's high-cardinality bodies, one
 * of bench/lib/verify-bodies.ts's browser-evidence bodies): their evidence, and their features with
 * their rule input. Deflate refers back into it, so the keys and
 * the common values of a new decision cost a few bits each. Never change it: every row packed in
 * format 1 is read with it. A better dictionary is a new format number with its own.
 */
export const PACKED_DICTIONARY_V1 = [
  '{"device":{"id":"dev_23d844236a7e612a836cfa85","source":"fingerprint","token":"absent","stable_attributes":8},"fingerprint":{"canvas":"c0000000000000000000000000000000","webgl":"google inc.|angle (nvidia geforce rtx 3060)|","audio":"a000000000000000","fonts":"arial,helvetica,verdana","screen":"1920x1080x24@0","timezone":"europe/berlin","languages":"en-us,en","hardware_concurrency":8},"environment":{"sdk_version":"1.0.0","webdriver":false,"webdriver_defined":"absent","automation_artifacts":[],"headless_markers":[],"cdp":false,"tampered_functions":[],"worker_mismatch":[],"clock_skew_ms":39,"nonce":"fresh","pow":"absent"},"behavior":{"present":false,"interactions":0,"time_to_submit_ms":null,"paste_count":0,"mouse_points":0,"zero_moves":0,"zero_move_count":0,"reversals":0,"mean_turn":0,"max_straightness":0,"straight_strokes":0,"flat_speed_strokes":0,"smooth_strokes":0,"long_smooth_strokes":0,"curvature_strokes":0,"stroke_length_ratio":null,"stroke_speed_ratio":null,"moves_per_sample":null,"strokes":0,"interval_cv":null,"mean_interval_ms":null,"key_dwell_cv":null,"key_gap_cv":null,"key_samples":0,"clicks":0,"mouse_moves":0,"touches":0,"key_dwell_median":null,"key_fast_dwell":0,"input_to_submit_ms":null,"approach_clicks":0,"teleport_clicks":0,"click_repeats":0,"centred_clicks":0,"key_rhythm_spread":null,"key_floor":null,"key_speed":null,"form":null,"presses":null,"pointer_frame":null,"pointer_steps":null,"pointer_grid":null}}',
  '{"f":{"event_type":"login","now_ms":1795943144875,"surface":"server","has_fingerprint":true,"has_behavior":false,"has_environment":true,"device_id":"dev_23d844236a7e612a836cfa85","device_source":"fingerprint","token":"absent","token_device_mismatch":false,"token_id":"","stable_attributes":8,"user_agent":"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36","ua_is_bot":false,"ua_headless":false,"ua_js_mismatch":false,"ua_browser":true,"ua_mobile":false,"ua_os":"windows","ua_inconsistencies":[],"ua_chromium":true,"worker_headless":false,"software_renderer":"none","webdriver":false,"webdriver_defined":"absent","automation_artifacts":[],"headless_markers":[],"cdp":false,"tampered_functions":[],"worker_mismatch":[],"email_domain":"example.com","email_disposable":false,"email_plus_alias":false,"has_payment":false,"order_amount":null,"login_succeeded":false,"behavior":{"present":false,"interactions":0,"time_to_submit_ms":null,"paste_count":0,"mouse_points":0,"zero_moves":0,"zero_move_count":0,"reversals":0,"mean_turn":0,"max_straightness":0,"straight_strokes":0,"flat_speed_strokes":0,"smooth_strokes":0,"long_smooth_strokes":0,"curvature_strokes":0,"stroke_length_ratio":null,"stroke_speed_ratio":null,"moves_per_sample":null,"strokes":0,"interval_cv":null,"mean_interval_ms":null,"key_dwell_cv":null,"key_gap_cv":null,"key_samples":0,"clicks":0,"mouse_moves":0,"touches":0,"key_dwell_median":null,"key_fast_dwell":0,"input_to_submit_ms":null,"approach_clicks":0,"teleport_clicks":0,"click_repeats":0,"centred_clicks":0,"key_rhythm_spread":null,"key_floor":null,"key_speed":null,"form":null,"presses":null,"pointer_frame":null,"pointer_steps":null,"pointer_grid":null},"clock_skew_ms":39,"nonce":"fresh","nonce_value":"soak-0","pow":"absent","history":{"ip_1m":1,"ip_1h":1,"account_1m":1,"account_1h":1,"device_1m":1,"device_1h":1,"failed_logins_account_1h":1,"failed_logins_ip_1h":1,"accounts_per_device_24h":1,"accounts_per_ip_24h":1,"payments_per_account_24h":0,"payments_per_device_24h":0,"accounts_per_email_24h":1,"device_first_seen":1795943144875,"device_events_30d":1,"device_risky_events_30d":0,"token_events_1h":0,"token_accounts_24h":0,"token_recent_risk":0,"device_recent_risk":0,"failed_logins_subnet_1h":1,"failed_logins_subnet_24h":1,"failed_accounts_subnet_24h":1,"failed_login_uas_ip_24h":1,"payments_per_ip_24h":0,"payments_per_subnet_24h":0,"small_payments_account_24h":0,"small_payments_device_24h":0,"small_payments_subnet_24h":0,"site_uses_sdk":false,"logins_subnet_24h":1},"subnet":"11.0.0.0/24","ip":{"asn":749,"org":"United States Department of Defense (DoD)","country":"US","hosting":false},"timezone":"Europe/Berlin","identity":{"cluster_id":"cl_62eb4f3f85a7e839b013","linked_accounts":0,"shared_devices":0,"shared_ips":0,"shared_payments":0},"hardware_profile":"hw_b81378d47266335e"},"r":{"v":1,"event":{"type":"login","account_id":"soak_acct_0","email":"soak.user.0@example.com","order_amount":null,"payment_hash":null,"promo_code":null,"ip":"11.0.0.0","user_agent":"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36","request_url":"https://shop.example/login","login_succeeded":false,"surface":"server"},"identity":{"cluster_id":"cl_62eb4f3f85a7e839b013","linked_accounts":0,"shared_devices":0,"shared_ips":0,"shared_payments":0},"device_id":"dev_23d844236a7e612a836cfa85","ip":"11.0.0.0","hard_automation":false,"default_signals":2}}',
  '{"device":{"id":"dev_54be953ee446bf46d5176d74","source":"fingerprint","token":"absent","stable_attributes":12},"fingerprint":{"canvas":"42c1812fc47bb51cbd7e15535c328296","webgl":"google inc.|apple m2|d1e0ac11428c8ad75d65460ae9bc75cb","audio":"5ca5dfd5de94d662","math":"511ae58f477b16cb","fonts":"arial,courier new,helvetica,times new roman,verdana","screen":"1920x1080x24@1","timezone":"america/new_york","languages":"en-us,en","platform":"macintel","hardware_concurrency":8,"device_memory":8,"touch_points":0},"environment":{"sdk_version":"1.0.0","webdriver":false,"webdriver_defined":"prototype","automation_artifacts":[],"headless_markers":[],"cdp":false,"tampered_functions":[],"worker_mismatch":[],"clock_skew_ms":4,"nonce":"fresh","pow":"absent"},"behavior":{"present":true,"interactions":674,"time_to_submit_ms":6692,"paste_count":0,"mouse_points":200,"zero_moves":0,"zero_move_count":0,"reversals":0.005319148936170213,"mean_turn":0.15063596632994158,"interval_cv":2.8588474956354872,"mean_interval_ms":28.015577889447236,"max_straightness":0.9974632206299014,"straight_strokes":1,"strokes":6,"flat_speed_strokes":0,"smooth_strokes":0,"long_smooth_strokes":0,"curvature_strokes":6,"stroke_length_ratio":null,"stroke_speed_ratio":null,"moves_per_sample":null,"key_dwell_cv":0.17998836042715913,"key_gap_cv":0.7886457724511172,"key_samples":24,"clicks":4,"mouse_moves":640,"touches":0,"key_dwell_median":88.7,"key_fast_dwell":0,"input_to_submit_ms":null,"approach_clicks":2,"teleport_clicks":0,"click_repeats":0,"centred_clicks":0,"key_rhythm_spread":0.4680851063829807,"key_floor":{"judged":47,"share":0.0425531914893617,"gap_share":0,"hold_share":0.08333333333333333,"gap_floor":22.2,"hold_floor":71.7},"key_speed":{"gaps":23,"gap_median":150.4,"holds":24,"hold_median":88.6},"form":null,"presses":null,"pointer_frame":null,"pointer_steps":null,"pointer_grid":null}}',
  '{"f":{"event_type":"login","now_ms":1795943145240,"surface":"server","has_fingerprint":true,"has_behavior":true,"has_environment":true,"device_id":"dev_54be953ee446bf46d5176d74","device_source":"fingerprint","token":"absent","token_device_mismatch":false,"token_id":"","stable_attributes":12,"user_agent":"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Safari/605.1.15","ua_is_bot":false,"ua_headless":false,"ua_js_mismatch":false,"ua_browser":true,"ua_mobile":false,"ua_os":"mac","ua_inconsistencies":[],"ua_chromium":false,"worker_headless":false,"software_renderer":"none","webdriver":false,"webdriver_defined":"prototype","automation_artifacts":[],"headless_markers":[],"cdp":false,"tampered_functions":[],"worker_mismatch":[],"email_domain":"mail1.example.com","email_disposable":false,"email_plus_alias":false,"has_payment":false,"order_amount":null,"login_succeeded":true,"behavior":{"present":true,"interactions":674,"time_to_submit_ms":6692,"paste_count":0,"mouse_points":200,"zero_moves":0,"zero_move_count":0,"reversals":0.005319148936170213,"mean_turn":0.15063596632994158,"interval_cv":2.8588474956354872,"mean_interval_ms":28.015577889447236,"max_straightness":0.9974632206299014,"straight_strokes":1,"strokes":6,"flat_speed_strokes":0,"smooth_strokes":0,"long_smooth_strokes":0,"curvature_strokes":6,"stroke_length_ratio":null,"stroke_speed_ratio":null,"moves_per_sample":null,"key_dwell_cv":0.17998836042715913,"key_gap_cv":0.7886457724511172,"key_samples":24,"clicks":4,"mouse_moves":640,"touches":0,"key_dwell_median":88.7,"key_fast_dwell":0,"input_to_submit_ms":null,"approach_clicks":2,"teleport_clicks":0,"click_repeats":0,"centred_clicks":0,"key_rhythm_spread":0.4680851063829807,"key_floor":{"judged":47,"share":0.0425531914893617,"gap_share":0,"hold_share":0.08333333333333333,"gap_floor":22.2,"hold_floor":71.7},"key_speed":{"gaps":23,"gap_median":150.4,"holds":24,"hold_median":88.6},"form":null,"presses":null,"pointer_frame":null,"pointer_steps":null,"pointer_grid":null},"clock_skew_ms":4,"nonce":"fresh","nonce_value":"nonce-1-3aad5344","pow":"absent","history":{"ip_1m":1,"ip_1h":1,"account_1m":1,"account_1h":1,"device_1m":1,"device_1h":1,"failed_logins_account_1h":0,"failed_logins_ip_1h":0,"accounts_per_device_24h":1,"accounts_per_ip_24h":1,"payments_per_account_24h":0,"payments_per_device_24h":0,"accounts_per_email_24h":1,"device_first_seen":1795943145240,"device_events_30d":1,"device_risky_events_30d":0,"token_events_1h":0,"token_accounts_24h":0,"token_recent_risk":0,"device_recent_risk":0,"failed_logins_subnet_1h":0,"failed_logins_subnet_24h":0,"failed_accounts_subnet_24h":0,"failed_login_uas_ip_24h":0,"payments_per_ip_24h":0,"payments_per_subnet_24h":0,"small_payments_account_24h":0,"small_payments_device_24h":0,"small_payments_subnet_24h":0,"site_uses_sdk":false,"logins_subnet_24h":1},"subnet":"43.158.55.0/24","ip":{"asn":132203,"org":"Shenzhen Tencent Computer Systems Company Limited","country":"DE","hosting":true},"timezone":"America/New_York","identity":{"cluster_id":"cl_e34970f1b925aacb842d","linked_accounts":0,"shared_devices":0,"shared_ips":0,"shared_payments":0},"hardware_profile":"hw_b3909612eb04a855"},"r":{"v":1,"event":{"type":"login","account_id":"acct_1","email":"user1@mail1.example.com","order_amount":null,"payment_hash":null,"promo_code":null,"ip":"43.158.55.121","user_agent":"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Safari/605.1.15","request_url":"https://shop.example/login","login_succeeded":true,"surface":"server"},"identity":{"cluster_id":"cl_e34970f1b925aacb842d","linked_accounts":0,"shared_devices":0,"shared_ips":0,"shared_payments":0},"device_id":"dev_54be953ee446bf46d5176d74","ip":"43.158.55.121","hard_automation":false,"default_signals":2}}',
].join('\n');

/**
 * The signal descriptions of the built-in catalogue as they read when format 2 was made (frozen: the
 * catalogue may change, this list never does). Format 2 keeps descriptions in the packed body.
 */
const SIGNAL_TEXTS_V2 = [
  'No fingerprint token and no fingerprint evidence.',
  'The fingerprint token is malformed or its signature is wrong.',
  'The fingerprint token is older than 10 minutes.',
  'The fingerprint token was issued for another site.',
  'A browser call (/collect) from a browser user agent with no token, fingerprint, environment or behaviour: not sent by the SDK.',
  "A form event verified by the backend without a fingerprint token, where the site's backend sends tokens with events of this type.",
  'Verified by the backend with no sign of a browser (no token or fingerprint) from a hosting network, on a site whose pages run the SDK.',
  'The fingerprint or first-party visitor id sent with the token is not the one the token was issued for.',
  "The SDK's first-party visitor id names another known device of the site than the fingerprint does (storage copied between browsers).",
  'navigator.webdriver is true.',
  'navigator.webdriver was redefined (a stealth patch hides automation).',
  'Globals left by automation tools (Selenium cdc_, Playwright, Puppeteer, Phantom).',
  'The browser reports itself as headless.',
  'Environment traits typical of headless browsers (per marker, up to 30).',
  'A Chrome DevTools Protocol client is attached (automation, or open developer tools).',
  'A DevTools Protocol client is attached and the page was driven mechanically (scripted pointer paths or timing, clicks without approach, synthetic keys, or a form without interaction).',
  'Native browser functions were replaced (toString is not native code).',
  'Values read in a Web Worker differ from the main thread (spoofed attributes).',
  'The page reports a hardware GPU but the Web Worker renders in software (SwiftShader, llvmpipe): a spoofed GPU on a machine without one.',
  'WebGL renders in software (SwiftShader, llvmpipe) on a Windows or macOS user agent.',
  "Mouse events put the page tens of pixels below (or beside) the window's corner although the window reports no toolbar or border (outer size = inner size): input dispatched into a headless browser over DevTools.",
  'navigator.webdriver is missing on a Chromium user agent (Chrome defines it; stealth scripts delete it).',
  'The user agent is a known bot, crawler or HTTP library.',
  'No user agent was observed.',
  'navigator.userAgent differs from the User-Agent header (spoofed in one place).',
  "The browser's own platform or Client Hints contradict its User-Agent (another OS, phone vs desktop, Chrome version, or Client Hints under a Firefox/Safari UA).",
  'A browser form event without behaviour evidence.',
  'No mouse, key, touch or scroll interaction before submit.',
  'The form was submitted less than 1.5 s after page load.',
  'Text fields filled and the form submitted less than 1 s after the first pointer, key or touch input.',
  'Mouse strokes follow ruler-straight lines (scripted movement).',
  'Mouse strokes keep one speed from start to end, without the acceleration and braking of a hand.',
  'A mouse stroke four or more times longer than another reached no higher speed: a hand covers a longer distance by moving faster (isochrony); a generator stepping the pointer at one speed does not.',
  'Mouse strokes bend as smoothly as a parametric curve (Bezier, spline): no tremor, sub-movements or corrections of a hand.',
  'Mouse path with injected jitter: the pointer turns back between consecutive moves (human-emulation libraries).',
  'Mouse path that turns sharply from one move to the next (injected jitter; also a fast hand on a device reporting rarely, so never enough alone).',
  'The pointer moved in jumps: single pointer events 40 ms or more apart that each moved it 8 px or more, 15 % or more of its moves (a remote desktop, a VM, a slow link, or a program sleeping between positions). No risk: the path tells abstain, and the page earns no behaviour trust.',
  'Mouse move events without any displacement (scripted movement).',
  'Event timing is too regular or too fast for a person (metronomic intervals).',
  'Two or more independent behaviour tells (path shape, timing, stationary moves, clicks, key dwell) agree.',
  'Varied, human-like mouse and keyboard behaviour.',
  "Every reach of the page to what it pressed moved like one machine model: none set off from rest and peaked as a hand's reach does, and longer reaches were no faster (a hand covers a longer distance faster: Fitts' law), or hardly faster and every reach set off and arrived at speed. Judged on three or more reaches, the longest 4.5 times the shortest or more, sampled faster than 25 Hz; never on touch. Soft: never enough alone.",
  "The page's reaches ran into what they pressed: none set off from rest and peaked as a hand's reach does, and all but one ran into it at 70 % of their top speed or more (speed over the last two sample intervals against the fastest over three; a hand brakes into its target). Judged where mouse_reaches_one_pace is. Soft: never enough alone.",
  'Desktop clicks without pointer movement towards them (at most one move per click): clicks dispatched by a script.',
  'Desktop clicks the pointer jumped to: at most one pointer sample in the second before each (people approach what they click).',
  "Clicks at their element's exact centre, or back at an earlier click's exact position: coordinates computed by a script.",
  'Most keys were released within 10 ms of being pressed: synthetic key events.',
  'Keys pressed at a fixed delay: the spread of the gaps between key presses is tiny, or (desktop) many gaps and holds sit on their floor, as a fixed delay leaves them however busy the machine.',
  'Desktop mouse presses released within 15 ms of going down (two or more, at least two thirds of them): a driver pressing and releasing at once. People hold a button 50–150 ms; tap-to-click on a Mac trackpad can also be instant, so this is never enough alone.',
  'Desktop keys pressed and released faster than hands type (20+ keys): median gap between key presses under 80 ms and median hold under 50 ms (people: about 240 ms, the fastest typists 100 ms; holds 70–130 ms). A fixed typing delay that a busy machine hid from key_rhythm_uniform (not scored where that fired). Alone it stays allow.',
  'Form fields got their text without a key, paste or input-method event (a driver inserting text, e.g. Playwright fill).',
  'Most mouse moves landed between device pixels on a platform whose mouse stays on them (Windows; Linux at pixel ratio 1): positions computed by a script and dispatched over DevTools (CDP), e.g. ghost-cursor.',
  'environment.timestamp is more than 5 minutes from server time (over 24 h: 30).',
  'environment.nonce was already used: replayed evidence.',
  'A valid, unused proof-of-work for this site was presented.',
  'The proof-of-work is wrong, expired or not from this site.',
  'The proof-of-work was already used.',
  'Many events from this IP in the last minute.',
  'Many events from this IP in the last hour.',
  'Many events for this account in the last minute.',
  'Many events for this account in the last hour.',
  'Many events from this device in the last minute.',
  'Many events from this device in the last hour.',
  'The address belongs to a hosting or cloud provider (datacenter, VPN or proxy exit).',
  "The browser's time zone keeps a clock no zone of the IP address's country keeps (a proxy in another region).",
  'Many failed logins for this account in the last hour (5+: 25, 20+: 40).',
  'Many failed logins from this IP in the last hour (10+: 25, 50+: 40), credential stuffing.',
  'Many failed logins from this /24 (IPv6 /64), most of its logins failing: 6+ in 1 h or 8+ accounts in 24 h: 25; 20+ or 30+: 40.',
  'Failed logins from this IP came with many different user agents in 24 h (4+: 20, 8+: 30).',
  'One fingerprint token was used for many accounts or events (a replayed capture).',
  "Raises the backend's score to the evidence risk of the browser decision it carries (when the carried_* signals and this decision's own do not reach it).",
  'Raises the score to the highest evidence risk of the same fingerprint token (browser session) in the last 30 minutes, or of the same desktop device capped at 60.',
  'Several accounts used this device in 24 h (3+: 20, 6+: 40).',
  'Many accounts used this IP in 24 h (8+: 15, 25+: 30); shared networks make this weak.',
  'Several accounts share one mailbox via plus or dot aliases in 24 h (2: 20, 3+: 35; +20 on promo claims).',
  'A promo claim from a device that other accounts used in 24 h.',
  'Promo claim from an account linked to 2+ others by device, payment or IP.',
  'Several payment methods tried by this account in 24 h (3+: 25, 6+: 45).',
  'Several payment methods tried from this device in 24 h (4+: 30, 8+: 50).',
  'Many payment methods from this IP (5+: 25, 10+: 40) or its /24 or /64 (8+: 20, 15+: 35) in 24 h.',
  'A run of small payments (under 5) for this account or device (3+: 20, 6+: 35) or network (6+: 20, 12+: 35) in 24 h.',
  '3+ distinct payment methods and 3+ small payments on one account or device in 24 h: cards being tried.',
  'One hardware profile (the fingerprint without canvas, audio and WebGL image hashes) seen as 3+ device ids paid with several cards in small amounts within 1 h (4+: 60, 6+: 75): a fingerprint-rotating browser testing cards.',
  'A checkout whose form was driven by a script (no interaction, scripted mouse or keys, clicks without pointer approach).',
  'The e-mail domain is a disposable mailbox service.',
  'The e-mail uses plus addressing on signup (cheap extra accounts on one mailbox).',
  'A long-lived device (7+ days, 5+ events) with a clean 30-day history.',
];

/**
 * The preset dictionary of format 2 (packed-row.ts): the signal descriptions, then format 1's
 * dictionary. Never change it; a better one is a new format number.
 */
export const PACKED_DICTIONARY_V2 = `${SIGNAL_TEXTS_V2.join('\n')}\n${PACKED_DICTIONARY_V1}`;
