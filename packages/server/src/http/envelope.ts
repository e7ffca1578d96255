/** The success envelope of interface 2.1. */
export function ok<T>(data: T): { success: true; data: T; timestamp: string } {
  return { success: true, data, timestamp: new Date().toISOString() };
}
