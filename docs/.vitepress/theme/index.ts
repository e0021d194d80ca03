import type { Theme } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import IdPlayground from './IdPlayground.vue';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('IdPlayground', IdPlayground);
  },
} satisfies Theme;
