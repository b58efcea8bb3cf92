import { lazy, type ComponentType } from 'react';

/**
 * A component loaded on demand, like React's `lazy`, that can also be loaded ahead of its first
 * use with `preload()`; once loaded it renders at once. A lazy component suspends on its first
 * render even when its code is already here, and React shows what was suspended no sooner than
 * 300 ms after its fallback (so that a screen does not flicker): a search's results came 0.3 s
 * after their answer did. A screen preloads what a person will likely open next.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> & { preload(): Promise<ComponentType<P>> } {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then((component) => (loaded = component));
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Preloadable(props: P) {
    const Component = (loaded ?? Lazy) as ComponentType<P>;
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { preload });
}
