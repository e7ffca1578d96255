/** Reference values for device profiles (user agents, GPUs, screens, fonts) as browsers report them. */
export const CHROME_VERSIONS = [
  ['131', '131.0.6778.86'],
  ['130', '130.0.6723.117'],
  ['129', '129.0.6668.101'],
] as const;

export const WIN_GPUS = [
  [
    'Google Inc. (NVIDIA)',
    'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002504) Direct3D11 vs_5_0 ps_5_0, D3D11)',
  ],
  [
    'Google Inc. (NVIDIA)',
    'ANGLE (NVIDIA, NVIDIA GeForce GTX 1650 (0x00001F99) Direct3D11 vs_5_0 ps_5_0, D3D11)',
  ],
  [
    'Google Inc. (Intel)',
    'ANGLE (Intel, Intel(R) UHD Graphics 620 (0x00005917) Direct3D11 vs_5_0 ps_5_0, D3D11)',
  ],
  [
    'Google Inc. (Intel)',
    'ANGLE (Intel, Intel(R) Iris(R) Xe Graphics (0x00009A49) Direct3D11 vs_5_0 ps_5_0, D3D11)',
  ],
  ['Google Inc. (AMD)', 'ANGLE (AMD, AMD Radeon RX 6600 (0x000073FF) Direct3D11 vs_5_0 ps_5_0, D3D11)'],
  ['Google Inc. (AMD)', 'ANGLE (AMD, AMD Radeon(TM) Graphics (0x00001638) Direct3D11 vs_5_0 ps_5_0, D3D11)'],
] as const;

export const MAC_GPUS = [
  ['Google Inc. (Apple)', 'ANGLE (Apple, ANGLE Metal Renderer: Apple M1, Unspecified Version)'],
  ['Google Inc. (Apple)', 'ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)'],
  ['Google Inc. (Apple)', 'ANGLE (Apple, ANGLE Metal Renderer: Apple M3 Pro, Unspecified Version)'],
  ['Google Inc. (Intel Inc.)', 'ANGLE (Intel Inc., Intel(R) Iris(TM) Plus Graphics 655, OpenGL 4.1)'],
] as const;

export const LINUX_GPUS = [
  ['Google Inc. (Intel)', 'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)'],
  [
    'Google Inc. (AMD)',
    'ANGLE (AMD, AMD Radeon RX 580 Series (radeonsi, polaris10, LLVM 15.0.7), OpenGL 4.6)',
  ],
] as const;

export const SWIFTSHADER = [
  'Google Inc. (Google)',
  'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
] as const;

/** [width, height, pixel ratio, weight]: screen.width/height are CSS pixels (scaled displays). */
export const WIN_SCREENS = [
  [1920, 1080, 1, 38],
  [1536, 864, 1.25, 18],
  [1366, 768, 1, 9],
  [2560, 1440, 1, 11],
  [1280, 720, 1.5, 6],
  [1600, 900, 1, 5],
  [1440, 900, 1, 4],
  [2560, 1440, 1.5, 3],
  [1680, 1050, 1, 3],
  [3440, 1440, 1, 3],
] as const;

export const MAC_SCREENS = [
  [1440, 900, 2, 22],
  [1512, 982, 2, 20],
  [1728, 1117, 2, 10],
  [1470, 956, 2, 14],
  [1920, 1080, 1, 10],
  [2560, 1440, 1, 10],
  [1680, 1050, 2, 6],
  [2056, 1329, 2, 4],
] as const;

export const IPHONES = [
  ['iPhone 13/14', 390, 844, 3],
  ['iPhone 15/16', 393, 852, 3],
  ['iPhone 15 Plus', 430, 932, 3],
  ['iPhone 11/XR', 414, 896, 2],
  ['iPhone SE', 375, 667, 2],
] as const;
export const IOS_VERSIONS = ['17_6', '18_0', '18_1', '17_5'] as const;

export const ANDROIDS = [
  ['SM-S921B', 384, 832, 2.8125, 'Mali-G720 MC10', 'ARM'],
  ['SM-A546B', 384, 854, 2.8125, 'Mali-G68 MC4', 'ARM'],
  ['Pixel 8', 412, 915, 2.625, 'Mali-G715', 'ARM'],
  ['Pixel 7a', 412, 915, 2.625, 'Mali-G710', 'ARM'],
  ['moto g 5G', 393, 873, 2.75, 'Adreno (TM) 619', 'Qualcomm'],
  ['2201117TY', 393, 851, 2.75, 'Adreno (TM) 610', 'Qualcomm'],
] as const;

export const WIN_FONTS = [
  'Arial',
  'Arial Black',
  'Calibri',
  'Cambria',
  'Comic Sans MS',
  'Consolas',
  'Courier New',
  'Georgia',
  'Impact',
  'Lucida Console',
  'Segoe UI',
  'Tahoma',
  'Times New Roman',
  'Trebuchet MS',
  'Verdana',
  'Wingdings',
];
export const MAC_FONTS = [
  'Arial',
  'Arial Black',
  'Comic Sans MS',
  'Courier New',
  'Georgia',
  'Helvetica',
  'Helvetica Neue',
  'Impact',
  'Lucida Grande',
  'Menlo',
  'Monaco',
  'Palatino',
  'Tahoma',
  'Times New Roman',
  'Trebuchet MS',
  'Verdana',
];
export const LINUX_FONTS = [
  'DejaVu Sans',
  'DejaVu Serif',
  'Liberation Mono',
  'Liberation Sans',
  'Noto Color Emoji',
  'Noto Sans',
  'Ubuntu',
];
/** Fonts some people add (Office, Adobe, developer tools): makes desktop font lists vary. */
export const EXTRA_FONTS = [
  'Calibri',
  'Cambria',
  'Roboto',
  'Noto Sans',
  'SF Pro Text',
  'Droid Sans',
  'Ubuntu',
  'Consolas',
];
