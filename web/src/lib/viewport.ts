import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';

export const MOBILE_MAX_WIDTH = 768;
export const TABLET_MAX_WIDTH = 1024;
const RESIZE_DEBOUNCE_MS = 100;

export type DeviceClass = 'mobile' | 'tablet' | 'desktop';

export function deviceClass(width: number, search: string): DeviceClass {
  if (new URLSearchParams(search).get('mobile') === 'true' || width <= MOBILE_MAX_WIDTH) return 'mobile';
  return width <= TABLET_MAX_WIDTH ? 'tablet' : 'desktop';
}

/** Phone, tablet or desk, from the window width (debounced) or `?mobile=true`. */
export function useDeviceClass(search: string): DeviceClass {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setWidth(window.innerWidth), RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return deviceClass(width, search);
}

/** The device class of the current page, for screens that lay out differently on phones. */
export function useDevice(): DeviceClass {
  return useDeviceClass(useLocation().search);
}
