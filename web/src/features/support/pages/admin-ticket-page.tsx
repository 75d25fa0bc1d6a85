// Being built: replaced by the screen itself before this lands.
export { Component } from '../../../app/components/on-its-way.js';
