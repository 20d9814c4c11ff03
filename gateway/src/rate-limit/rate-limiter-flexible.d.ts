declare module 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js' {
  import type { RateLimiterStoreAbstract } from 'rate-limiter-flexible';

  const StoreAbstract: typeof RateLimiterStoreAbstract;
  export default StoreAbstract;
}
